// Package budget bounds the memory a lab's runs may take: a string
// doubled in a loop, a recursion with no end or a record that grows
// without bound stops the run with a clear error instead of taking the
// machine. Guard gives a run a context that the one watcher of the
// process cancels, with ErrMemory as its cause, when the heap's live
// objects and the goroutines' stacks pass Memory (measured after a
// collection, so garbage not yet collected does not count).
package budget
