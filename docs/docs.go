// Package docs embeds the project's documents that the binary prints, such
// as each game's rules (parlour rules GAME).
package docs

import "embed"

// Rules holds rules/<game>.md for every game.
//
//go:embed rules/*.md
var Rules embed.FS
