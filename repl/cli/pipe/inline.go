package pipe

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/locklab/locklab/repl/cli/resp"
)

// AsRESP is in for a server that reads only RESP (the embedded Redis):
// input that starts with '*' is RESP already and passes as it is; any
// other is inline commands, a line each, which Redis itself would read,
// turned into RESP as Redis splits them (sdssplitargs: words, "..." with
// backslash escapes, '...'). A line that does not split (an open quote)
// is an error, as Redis answers "Protocol error: unbalanced quotes".
func AsRESP(in io.Reader) io.Reader {
	br := bufio.NewReaderSize(in, 64<<10)
	if first, err := br.Peek(1); err != nil || first[0] == '*' {
		return br
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(inlineToRESP(br, pw)) }()
	return pr
}

// maxInline bounds one inline line, as Redis does (PROTO_INLINE_MAX_SIZE,
// 64 KiB): a stream with no line break (/dev/zero) is refused, not held.
const maxInline = 64 << 10

func inlineToRESP(r *bufio.Reader, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(r)
		if line = strings.TrimRight(line, "\r\n"); line != "" {
			args, serr := SplitArgs(line)
			if serr != nil {
				return fmt.Errorf("line %d: %v", n, serr)
			}
			if len(args) > 0 {
				bw.Write(resp.Command(args...))
			}
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
	}
}

// readLine reads one line, refused past maxInline.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxInline {
			return "", fmt.Errorf("an inline command of over %d KiB (Redis refuses them too; send RESP)", maxInline>>10)
		}
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// SplitArgs splits an inline command as Redis does (sdssplitargs).
func SplitArgs(line string) ([]string, error) {
	var args []string
	for i := 0; ; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return args, nil
		}
		arg, next, err := splitOne(line, i)
		if err != nil {
			return nil, err
		}
		args, i = append(args, arg), next
	}
}

// splitOne reads the word at i: its value and where the next begins.
func splitOne(line string, i int) (string, int, error) {
	var b strings.Builder
	var quote byte
	for ; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t'):
			return b.String(), i, nil
		case quote == 0 && (c == '"' || c == '\'') && b.Len() == 0:
			quote = c
		case quote != 0 && c == quote:
			if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				return "", 0, fmt.Errorf("closing quote must be followed by a space")
			}
			return b.String(), i + 1, nil
		case quote == '"' && c == '\\' && i+1 < len(line):
			n := unescape(&b, line[i+1:])
			i += n
		case quote == '\'' && c == '\\' && i+1 < len(line) && line[i+1] == '\'':
			b.WriteByte('\'')
			i++
		default:
			b.WriteByte(c)
		}
	}
	if quote != 0 {
		return "", 0, fmt.Errorf("unbalanced quotes")
	}
	return b.String(), i, nil
}

// unescape writes the escape at the start of s (after a backslash) and
// says how many bytes it took.
func unescape(b *strings.Builder, s string) int {
	if s[0] == 'x' && len(s) >= 3 {
		if v, err := strconv.ParseUint(s[1:3], 16, 8); err == nil {
			b.WriteByte(byte(v))
			return 3
		}
	}
	if r, ok := map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'a': '\a'}[s[0]]; ok {
		b.WriteByte(r)
	} else {
		b.WriteByte(s[0])
	}
	return 1
}
