// Package golden helps golden-file tests: it shows where an output differs
// from its golden file, line by line.
package golden

import (
	"fmt"
	"strings"
)

// maxLines bounds a diff's length.
const maxLines = 200

// Diff shows want and got line by line: "-" only in the golden, "+" only
// in the output, " " in both (a longest-common-subsequence diff, for the
// small files goldens are).
func Diff(want, got string) string {
	a := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	for i, j, n := 0, 0, 0; i < len(a) || j < len(b); n++ {
		if n == maxLines {
			out.WriteString("...\n")
			break
		}
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&out, "  %s\n", a[i])
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "+ %s\n", b[j])
			j++
		default:
			fmt.Fprintf(&out, "- %s\n", a[i])
			i++
		}
	}
	return out.String()
}
