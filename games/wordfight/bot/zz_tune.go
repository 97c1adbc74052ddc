package bot

import (
	"os"
	"strconv"
	"strings"
)

// tuneParams is a throwaway: WFX=future=0.5,... overrides.
func tuneParams(p params) params {
	for _, kv := range strings.Split(os.Getenv("WFX"), ",") {
		k, v, _ := strings.Cut(kv, "=")
		f, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "future":
			p.future = f
		case "cands":
			p.candidates = int(f)
		case "imagine":
			p.imagine = int(f)
		case "short":
			p.shortlist = int(f)
		case "suit":
			p.suit = f
		case "cross":
			p.crossers = int(f)
		case "rw":
			p.rivalWeight = f
		}
	}
	return p
}
