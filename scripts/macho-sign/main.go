// macho-sign: ad-hoc signs a macOS (Mach-O) executable in place, what `codesign --force --sign - <file>` does
// on a Mac, for the darwin archives of `npm run release` (scripts/release.ts): injecting the plugin into
// Node's binary invalidates Node's own signature, and macOS on arm64 runs no unsigned or badly signed code.
// No Apple tool runs here, so this uses github.com/blacktop/go-macho (pure Go, from the Go module proxy).
//
// Usage: macho-sign <file> <identifier>. The signature keeps the entitlements of the one it replaces (Node's:
// JIT and the like), drops its team id (an ad-hoc signature has none) and its hardened-runtime flag. Then it
// checks its own work: it reads the file back and compares the hash of every page the signature covers with
// the one the signature holds, and fails on any difference.
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/blacktop/go-macho"
	"github.com/blacktop/go-macho/pkg/codesign"
	ctypes "github.com/blacktop/go-macho/pkg/codesign/types"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: macho-sign <file> <identifier>")
		os.Exit(2)
	}
	if err := sign(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "macho-sign: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if err := verify(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "macho-sign: %s: the new signature does not hold: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// sign replaces the file's signature with an ad-hoc one (written beside it, then renamed over it).
func sign(path, id string) error {
	f, err := macho.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if cs := f.CodeSignature(); cs != nil {
		for i := range cs.CodeDirectories {
			cs.CodeDirectories[i].TeamID = ""
		}
	}
	if err := f.CodeSign(&codesign.Config{ID: id, Flags: ctypes.ADHOC}); err != nil {
		return err
	}
	tmp := path + ".signing"
	if err := f.Save(tmp); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// verify compares the SHA-256 of every page up to the code limit with the code directory's slots.
func verify(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		return err
	}
	cs := f.CodeSignature()
	if cs == nil || len(cs.CodeDirectories) == 0 {
		return fmt.Errorf("no code directory")
	}
	cd := cs.CodeDirectories[0]
	if cd.Header.Flags&ctypes.ADHOC == 0 || cd.TeamID != "" {
		return fmt.Errorf("not ad-hoc (flags %v, team %q)", cd.Header.Flags, cd.TeamID)
	}
	limit := int(cd.Header.CodeLimit)
	page := 1 << cd.Header.PageSize
	if want := (limit + page - 1) / page; len(cd.CodeSlots) != want {
		return fmt.Errorf("%d code slots for %d bytes", len(cd.CodeSlots), limit)
	}
	for i, slot := range cd.CodeSlots {
		end := min((i+1)*page, limit)
		sum := sha256.Sum256(data[i*page : end])
		if !bytes.Equal(sum[:len(slot.Hash)], slot.Hash) {
			return fmt.Errorf("page %d: hash differs", i)
		}
	}
	fmt.Printf("%s: ad-hoc signed as %s, %d pages verified\n", path, cd.ID, len(cd.CodeSlots))
	return nil
}
