// A tarneeb bot in Go that plays a random legal move: the whole protocol (protocol.md) in one
// file, standard library only (Go 1.19 or later).
//
// Build it once, then give the binary to the referee:
//
//	go build -o /tmp/random_bot sample-bots/go/random_bot.go
//	tarneeb check-bot /tmp/random_bot
//
// It answers `hello` (and `new_game`, declaring `multi_game`) with its name, answers each
// `request` with one of its `legal` moves and the request's `id`, ignores every other message,
// and exits when stdin ends. Replies go to stdout, one line each, flushed; diagnostics go to
// stderr, which the referee logs.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
)

// The fields of the referee's messages this bot reads; encoding/json skips the others.
type message struct {
	Type  string   `json:"type"`
	Seat  int      `json:"seat"`
	Seed  int64    `json:"seed"`
	ID    uint64   `json:"id"`
	Legal []string `json:"legal"`
	Game  *struct {
		Name string `json:"name"`
	} `json:"game"`
}

type hello struct {
	Type      string `json:"type"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	MultiGame bool   `json:"multi_game"`
}

type move struct {
	Type string `json:"type"`
	ID   uint64 `json:"id"`
	Move string `json:"move"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	// A request is a few kilobytes; allow far more than that.
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out) // Encode writes one line, ending in "\n"
	rng := rand.New(rand.NewSource(1))
	for in.Scan() {
		var msg message
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintf(os.Stderr, "cannot read %q: %v\n", in.Text(), err)
			os.Exit(1)
		}
		switch msg.Type {
		case "hello", "new_game":
			// The referee's seed makes the bot's choices reproducible with the game.
			rng = rand.New(rand.NewSource(msg.Seed))
			if msg.Game != nil {
				fmt.Fprintf(os.Stderr, "playing %s in seat %d\n", msg.Game.Name, msg.Seat)
			}
			enc.Encode(hello{"hello", "go-random", "1.0", true})
		case "request":
			enc.Encode(move{"move", msg.ID, msg.Legal[rng.Intn(len(msg.Legal))]})
		default:
			continue
		}
		// Without this the reply waits in the buffer and the referee waits for it.
		if err := out.Flush(); err != nil {
			os.Exit(1)
		}
	}
}
