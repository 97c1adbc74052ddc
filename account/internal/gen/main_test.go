package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestCommonest(t *testing.T) {
	got, err := commonest([]string{"123456", "Password", "password", "QWERTY", "dragon", "x"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"123456", "password", "qwerty"}; !slices.Equal(got, want) {
		t.Errorf("commonest = %q, want %q", got, want)
	}
	if _, err := commonest([]string{"a", "A"}, 2); err == nil {
		t.Error("commonest accepted a list with too few distinct passwords")
	}
	if _, err := commonest([]string{"a\nb"}, 1); err == nil {
		t.Error("commonest accepted a password with a newline")
	}
}

func TestPackRoundTrip(t *testing.T) {
	list := []string{"123456", "password", "qwerty"}
	data, err := pack(list)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := pack(list)
	if !bytes.Equal(data, again) {
		t.Error("pack is not deterministic")
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(text)); !slices.Equal(got, list) {
		t.Errorf("unpacked %q, want %q", got, list)
	}
}
