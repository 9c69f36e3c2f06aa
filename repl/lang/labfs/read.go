package labfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxScript bounds a script read whole: far above any lab's, and it
// keeps a device or a huge file from filling the memory.
const MaxScript = 8 << 20

// ErrNotRegular is the answer for a lab script that is not a regular
// file (a FIFO, a device, a folder): it is never opened for reading.
var ErrNotRegular = errors.New("not a regular file (a lab reads only plain script files)")

// ReadScript reads the lab script a path of the language names. own is
// set when it is one of the lab's own embedded scripts, which the folder
// lacks. Errors name the problem, never the file's text.
func (v *View) ReadScript(p string) (data []byte, own string, err error) {
	name, ok := Name(p)
	if !ok {
		return nil, "", ErrNotLabFile
	}
	data, err = v.readInFolder(name)
	if own = v.ownScript(name); errors.Is(err, fs.ErrNotExist) && own != "" {
		data, err = fs.ReadFile(v.scripts, own)
		return data, own, err
	}
	return data, "", err
}

func (v *View) readInFolder(name string) ([]byte, error) {
	root := v.folder()
	if root == nil {
		return nil, fs.ErrNotExist
	}
	// O_NONBLOCK: a FIFO opens at once (and is then refused) instead of
	// waiting for a writer; a regular file reads as usual.
	f, err := root.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	return readCapped(f)
}

// readCapped reads r to its end, or fails past MaxScript bytes.
func readCapped(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxScript+1))
	if err == nil && len(data) > MaxScript {
		err = fmt.Errorf("over %d MiB: not a lab script", MaxScript>>20)
	}
	return data, err
}

// ReadNamed reads a script named on locklab's command line, where the
// user may name any file: a regular file up to MaxScript bytes, or a pipe
// or device (locklab <(cat x.lab)) until its end, MaxScript, or ctx's end
// (a FIFO with no writer would block its opening for ever).
func ReadNamed(ctx context.Context, path string) ([]byte, error) {
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- read{nil, err}
			return
		}
		defer f.Close()
		data, err := readCapped(f)
		done <- read{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err() // the goroutine ends with the process
	}
}
