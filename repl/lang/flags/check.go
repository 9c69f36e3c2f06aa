package flags

import "slices"

// Check says, before a script runs, what is wrong with a call's
// arguments: known[i] says whether args[i] is known yet (a literal word)
// or only at run time ($b), which may be any number of words. With every
// word known it is Parse's verdict; else the known flags and their known
// values are checked, and the count of positional arguments is not.
func (s *Spec) Check(args []string, known []bool) error {
	if !slices.Contains(known, false) {
		_, err := s.Parse(args)
		return err
	}
	if len(s.Subs) > 0 {
		if !known[0] || isFlag(args[0]) {
			return nil
		}
		if sub := s.Sub(args[0]); sub != nil {
			return sub.Check(args[1:], known[1:])
		}
		_, err := s.Parse(args[:1])
		return err
	}
	s = s.form(args)
	p := &Parsed{Spec: s, values: map[string]any{}, given: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		switch {
		case known[i] && args[i] == "--":
			return nil
		case !known[i] || !isFlag(args[i]):
		case i+1 < len(args) && !known[i+1]:
			if err := p.checkName(args[i]); err != nil {
				return err
			}
			i++
		default:
			used, err := p.readFlag(args[i:])
			if err != nil {
				return err
			}
			i += used - 1
		}
	}
	return nil
}

// checkName checks a flag whose value is known only at run time.
func (p *Parsed) checkName(arg string) error {
	name := arg[2:]
	if f := p.Spec.Flag(name); f == nil {
		return p.Spec.unknownFlag(name)
	} else if f.Kind == Bool {
		p.given[name] = true
		return nil
	}
	return nil
}
