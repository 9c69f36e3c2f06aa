package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestLineTooLong: a stream with no line break stops with an error once a
// line passes MaxLine, instead of reading until the memory is gone
// (`locklab /dev/zero` took 6 GB in 20 s); a long line below it is read
// whole.
func TestLineTooLong(t *testing.T) {
	if _, err := From(zeros{}).ReadLine(""); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("got %v, want ErrLineTooLong", err)
	}
	long := strings.Repeat("x", 3<<20)
	r := From(strings.NewReader("SET k " + long + "\r\nlast"))
	for _, want := range []string{"SET k " + long, "last"} {
		if got, err := r.ReadLine(""); err != nil || got != want {
			t.Fatalf("got %d bytes, %v; want %d bytes", len(got), err, len(want))
		}
	}
	if _, err := r.ReadLine(""); err != io.EOF {
		t.Fatalf("after the last line: %v, want io.EOF", err)
	}
}

// TestSizedReaderReadsTheSame: a reader that says its length gets a
// buffer of that size, and reads the same lines as the 64 KiB one.
func TestSizedReaderReadsTheSame(t *testing.T) {
	for _, text := range []string{"", "PING", "a\nb\r\n\nlast", strings.Repeat("y", 100) + "\nz\n", "\n\n"} {
		sized, unsized := From(strings.NewReader(text)), From(io.MultiReader(strings.NewReader(text)))
		for {
			got, errGot := sized.ReadLine("")
			want, errWant := unsized.ReadLine("")
			if got != want || errGot != errWant {
				t.Fatalf("%q: sized read %q, %v; unsized %q, %v", text, got, errGot, want, errWant)
			}
			if errGot != nil {
				break
			}
		}
	}
	if size := From(strings.NewReader("PING\n")).r.Size(); size != 16 {
		t.Errorf("a 5-byte text: buffer of %d bytes, want bufio's floor of 16", size)
	}
}
