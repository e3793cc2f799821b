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
	// The signature goes right after __LINKEDIT's data, which must end on 16 bytes, as codesign_allocate
	// places it: pad the file with zeros to that, and __LINKEDIT over them (below).
	if err := padTo16(path); err != nil {
		return err
	}
	f, err := macho.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Saving writes the segments one after the other, each its file size long: a segment that ends before the
	// page the next one starts at (postject's, whose size is the blob's) would shift all that follows.
	// Page-aligned file sizes, as the linker writes them, keep every segment where it is.
	segs := f.Segments()
	for i, seg := range segs[:len(segs)-1] {
		if seg.Filesz == 0 {
			continue
		}
		if next := segs[i+1]; next.Offset > seg.Offset+seg.Filesz && next.Offset-seg.Offset <= seg.Memsz {
			seg.Filesz = next.Offset - seg.Offset
		}
	}
	if le := segs[len(segs)-1]; le.Name == "__LINKEDIT" && f.CodeSignature() == nil {
		le.Filesz = (le.Filesz + 15) &^ 15
	}
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

// padTo16 appends zeros to the file up to a multiple of 16 bytes.
func padTo16(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Size()%16 == 0 {
		return err
	}
	out, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := out.Write(make([]byte, 16-st.Size()%16)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
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
	if cs.Offset%16 != 0 {
		return fmt.Errorf("signature at %#x, not on 16 bytes", cs.Offset)
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
