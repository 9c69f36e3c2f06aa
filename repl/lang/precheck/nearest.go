package precheck

import "github.com/locklab/locklab/repl/lang/words"

// Nearest is the lab word closest to a typo (within two edits), or "".
func Nearest(word string) string {
	best, bestDist := "", 3
	for _, w := range words.Table() {
		if d := distance(word, w.Name); d < bestDist && w.Name != "." {
			best, bestDist = w.Name, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
