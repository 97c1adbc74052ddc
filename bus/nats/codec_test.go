package nats

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"parlour/bus"
)

func TestCodecRoundTrip(t *testing.T) {
	for _, data := range [][]byte{nil, {}, []byte("x"), bytes.Repeat([]byte{0, 0xff}, 1000)} {
		for _, v := range []int{1, 127, 128, 1 << 40} {
			gv, gd, err := decodeChange(encodeChange(v, data))
			if err != nil || gv != v || !bytes.Equal(gd, data) {
				t.Errorf("change v%d %d bytes: got v%d %d bytes, %v", v, len(data), gv, len(gd), err)
			}
		}
		for _, r := range []request{
			{kind: reqCall, left: 1500 * time.Millisecond, from: "node-1", data: data},
			{kind: reqPing, left: time.Millisecond, from: strings.Repeat("n", bus.MaxName), data: data},
		} {
			got, err := decodeRequest(encodeRequest(r))
			if err != nil || got.kind != r.kind || got.left != r.left || got.from != r.from || !bytes.Equal(got.data, r.data) {
				t.Errorf("request %+v: got %+v, %v", r, got, err)
			}
		}
		for _, k := range []byte{replyOK, replyError, replyGone} {
			r := reply{kind: k, node: "b_2", data: data}
			got, err := decodeReply(encodeReply(r))
			if err != nil || got.kind != r.kind || got.node != r.node || !bytes.Equal(got.data, r.data) {
				t.Errorf("reply %+v: got %+v, %v", r, got, err)
			}
		}
	}
	// A deadline under a millisecond away still travels as one.
	if got, err := decodeRequest(encodeRequest(request{from: "a", left: 10 * time.Microsecond})); err != nil || got.left != time.Millisecond {
		t.Errorf("a deadline 10µs away: got %v, %v", got.left, err)
	}
}

func TestCodecBad(t *testing.T) {
	good := encodeRequest(request{from: "a", left: time.Second, data: []byte("d")})
	tests := []struct {
		name string
		b    []byte
		dec  func([]byte) error
		want string
	}{
		{"empty change", nil, changeErr, "cut short"},
		{"change of a newer format", []byte{2, 1}, changeErr, "format"},
		{"change without version", []byte{format}, changeErr, "cut short"},
		{"change at version 0", []byte{format, 0}, changeErr, "out of range"},
		{"change with a padded version", []byte{format, 0x81, 0x00}, changeErr, "padded"},
		{"change with a runaway varint", append([]byte{format}, bytes.Repeat([]byte{0xff}, 11)...), changeErr, "cut short"},
		{"empty request", nil, requestErr, "cut short"},
		{"request of a newer format", append([]byte{9}, good[1:]...), requestErr, "format"},
		{"request of an unknown kind", []byte{format, 7, 1, 1, 'a'}, requestErr, "kind"},
		{"request with no time left", []byte{format, reqCall, 0, 1, 'a'}, requestErr, "out of range"},
		{"request with too long a time", append([]byte{format, reqCall}, append(appendUvarint(nil, 1<<40), 1, 'a')...), requestErr, "out of range"},
		{"request from a name cut short", []byte{format, reqCall, 1, 5, 'a'}, requestErr, "cut short"},
		{"request from a bad name", []byte{format, reqCall, 1, 3, 'a', '.', 'b'}, requestErr, "node name"},
		{"request from nobody", []byte{format, reqCall, 1, 0}, requestErr, "empty"},
		{"request cut short", good[:3], requestErr, "cut short"},
		{"empty reply", nil, replyErr, "cut short"},
		{"reply of an unknown kind", []byte{format, 3, 1, 'a'}, replyErr, "kind"},
		{"reply from a bad name", []byte{format, replyOK, 1, '*'}, replyErr, "node name"},
		{"reply without a name", []byte{format, replyOK}, replyErr, "cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.dec(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func changeErr(b []byte) error  { _, _, err := decodeChange(b); return err }
func requestErr(b []byte) error { _, err := decodeRequest(b); return err }
func replyErr(b []byte) error   { _, err := decodeReply(b); return err }

// The decoders read what the network sends: they must refuse, never
// panic, and what they accept must encode back to the same bytes.

func FuzzDecodeChange(f *testing.F) {
	f.Add(encodeChange(1, []byte("x")))
	f.Add([]byte{format, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, d, err := decodeChange(b)
		if err != nil {
			return
		}
		if !bytes.Equal(encodeChange(v, d), b) {
			t.Errorf("%x decodes to v%d %x, which encodes otherwise", b, v, d)
		}
	})
}

func FuzzDecodeRequest(f *testing.F) {
	f.Add(encodeRequest(request{from: "a", left: time.Second, data: []byte("move")}))
	f.Add(encodeRequest(request{kind: reqPing, from: "node_2", left: time.Millisecond}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRequest(b)
		if err != nil {
			return
		}
		if r.left <= 0 || r.left > maxLeft || bus.CheckName("node", r.from) != nil {
			t.Errorf("%x decodes to %+v", b, r)
		}
		if again, err := decodeRequest(encodeRequest(r)); err != nil || again.left != r.left || again.from != r.from || !bytes.Equal(again.data, r.data) {
			t.Errorf("%x decodes to %+v, which does not encode back: %+v, %v", b, r, again, err)
		}
	})
}

func FuzzDecodeReply(f *testing.F) {
	f.Add(encodeReply(reply{node: "a", data: []byte("ok")}))
	f.Add(encodeReply(reply{kind: replyError, node: "b", data: []byte("not your turn")}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeReply(b)
		if err != nil {
			return
		}
		if !bytes.Equal(encodeReply(r), b) {
			t.Errorf("%x decodes to %+v, which encodes otherwise", b, r)
		}
	})
}
