package resp_test

import (
	"fmt"

	"github.com/locklab/locklab/repl/cli/resp"
)

func Example() {
	// The reply to XRANGE on a stream of two entries, as read from the socket.
	raw := []byte("*2\r\n" +
		"*2\r\n$3\r\n1-1\r\n*2\r\n$4\r\nseat\r\n$3\r\n42A\r\n" +
		"*2\r\n$3\r\n2-1\r\n*2\r\n$4\r\nnote\r\n$8\r\nsay \"hi\"\r\n")
	r, n, err := resp.Parse(raw)
	if err != nil {
		panic(err)
	}
	fmt.Println(n == len(raw), r)
	fmt.Print(resp.FormatTTY(r))
	fmt.Print(resp.FormatRaw(r))
	// Output:
	// true [["1-1" ["seat" "42A"]] ["2-1" ["note" "say \"hi\""]]]
	// 1) 1) "1-1"
	//    2) 1) "seat"
	//       2) "42A"
	// 2) 1) "2-1"
	//    2) 1) "note"
	//       2) "say \"hi\""
	// 1-1
	// seat
	// 42A
	// 2-1
	// note
	// say "hi"
}

func ExampleParse_incomplete() {
	_, _, err := resp.Parse([]byte("*2\r\n:1\r\n"))
	fmt.Println(err == resp.ErrIncomplete)
	_, _, err = resp.Parse([]byte("*2\r\n:one\r\n"))
	fmt.Println(err)
	// Output:
	// true
	// resp: protocol error at byte 5: bad integer "one"
}
