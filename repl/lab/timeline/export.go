package timeline

import (
	"fmt"
	"path/filepath"

	"github.com/locklab/locklab/repl/cli/output"
)

// Draw renders a timeline for the terminal, in the output's colours.
func Draw(o *output.Output, t Timeline, width int, compact bool) string {
	style := Style{Lane: o.PaintLane, Level: o.Note}
	if compact {
		return DroppedLine(t) + Compact(t, width, style)
	}
	return DroppedLine(t) + Terminal(t, width, style)
}

// DroppedLine says, above a picture of a run that outgrew the record,
// that its oldest commands are not drawn ("" when none was dropped).
func DroppedLine(t Timeline) string {
	if t.Dropped == 0 {
		return ""
	}
	return fmt.Sprintf("(the run's first %d commands are not drawn: the picture keeps the last ones; the notes and the verdict saw them all)\n", t.Dropped)
}

// Export writes a timeline to file as "mermaid" (.mmd) or "svg" (.svg),
// with output.WriteFile: a new file or a regular one it replaces, never
// through a symbolic link.
func Export(t Timeline, format, file string) error {
	if err := CheckExport(format, file); err != nil {
		return err
	}
	text := Mermaid(t)
	if line := DroppedLine(t); line != "" {
		text = "%% " + line + text
	}
	if format == "svg" {
		text = SVG(t)
	}
	if err := output.WriteFile(file, []byte(text)); err != nil {
		return fmt.Errorf("--%s %w", format, err)
	}
	return nil
}

// CheckExport says what is wrong with a file name for a picture of
// format, before anything runs.
func CheckExport(format, file string) error {
	if ext := exportExt[format]; filepath.Ext(file) != ext {
		return fmt.Errorf("--%s %s: the file must end in %s", format, file, ext)
	}
	return nil
}

// exportExt is the file ending each picture's format needs.
var exportExt = map[string]string{"mermaid": ".mmd", "svg": ".svg"}
