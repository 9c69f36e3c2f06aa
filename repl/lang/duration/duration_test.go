package duration

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"300ms": 300 * time.Millisecond, "2s": 2 * time.Second, "1m30s": 90 * time.Second, "1.5s": 1500 * time.Millisecond,
		"-5s": -5 * time.Second, "+5s": 5 * time.Second, "500us": 500 * time.Microsecond, "0": 0, "0.0": 0, "-0": 0, "0s": 0,
	} {
		if d, err := Parse(s); err != nil || d != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, d, err, want)
		}
	}
	for s, msg := range map[string]string{
		"3": "3 needs a unit: 3s or 3ms", "300": "300 needs a unit: 300s or 300ms", "0.2": "0.2 needs a unit: 0.2s or 0.2ms",
		"-3": "-3 needs a unit: -3s or -3ms", ".5": ".5 needs a unit: .5s or .5ms",
	} {
		_, err := Parse(s)
		var nu *NoUnitError
		if !errors.As(err, &nu) || err.Error() != msg {
			t.Errorf("Parse(%q): %v, want %q", s, err, msg)
		}
	}
	for _, s := range []string{"", "x", "3x", "1e3", "inf", "NaN", "s", "3 s", "0x10"} {
		if _, err := Parse(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): %v, want ErrSyntax", s, err)
		}
	}
	if _, err := Flag("--work", "3"); err == nil || err.Error() != "--work 3: 3 needs a unit: 3s or 3ms" {
		t.Errorf("Flag(--work, 3): %v", err)
	}
}
