package words

import (
	"slices"
	"sync"
)

// Parts is what the features keep for one shell: the failover lab's
// cluster, Redlock's nodes, the scripts loaded on the server, the run's
// record. The kernel knows none of them: each feature names its part
// with a Part of its own type, and the shell closes them all when it
// ends. Background jobs use them at once: Parts is safe for that, and
// each part guards its own fields.
type Parts struct {
	mu    sync.Mutex
	byKey map[any]any
	order []any // in the order they were made, closed the other way
}

// Part names one feature's state in every shell's Parts.
type Part[T any] struct {
	make func() *T
}

// NewPart names a part of type T, made by make on first use.
func NewPart[T any](make func() *T) *Part[T] { return &Part[T]{make: make} }

// Of is the part in the shell env runs in, made on first use.
func (k *Part[T]) Of(env Env) *T { return k.In(env.Parts()) }

// In is the part in p, made on first use.
func (k *Part[T]) In(p *Parts) *T {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.byKey[k]; ok {
		return v.(*T)
	}
	v := k.make()
	p.put(k, v)
	return v
}

// Put makes v the part in p (the shell gives its record this way).
func (k *Part[T]) Put(p *Parts, v *T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.put(k, v)
}

func (p *Parts) put(k, v any) {
	if p.byKey == nil {
		p.byKey = map[any]any{}
	}
	if _, ok := p.byKey[k]; !ok {
		p.order = append(p.order, k)
	}
	p.byKey[k] = v
}

// Close closes every part that has a Close method (servers a feature
// started stop with the shell), the last made first.
func (p *Parts) Close() {
	p.mu.Lock()
	keys := slices.Clone(p.order)
	parts := make([]any, len(keys))
	for i, k := range keys {
		parts[i] = p.byKey[k]
	}
	p.mu.Unlock()
	for _, v := range slices.Backward(parts) {
		if c, ok := v.(interface{ Close() }); ok {
			c.Close()
		}
	}
}
