package advise

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/keygen"
)

// The generator judges its candidates one after another, each decision
// (a name, a repeat, what is hot) taken in a fixed order. Judging is
// what takes the time, and one judgement does not depend on another, so
// workers judge the forms ahead of that pass, on every core, and the pass
// takes each prediction in its own order: the candidates, their names,
// their order and every figure are the same as when judged one by one.

// specOf is a form's scheme spec (made unique) and pattern, or why it has
// none.
type specOf struct {
	spec    keygen.SchemeSpec
	pattern string
	err     error
	// scheme is spec compiled, and checked the check of its keys, when
	// making it unique left it as it was (nil otherwise).
	scheme  *keygen.Scheme
	checked keygen.CheckResult
}

// run is one scheme's judgement, done or under way: done is closed once
// scheme, p and err are set.
type run struct {
	done   chan struct{}
	scheme *keygen.Scheme
	p      *judge.Prediction
	err    error
}

// spec is form f's scheme spec and pattern (with the index tables the mix
// reads besides its own), worked out once whoever asks first.
func (g *generator) spec(f form) specOf {
	k, rk := f.k, f.rk
	name := k.name()
	if rk.label != "" {
		name += "-" + rk.label
	}
	pattern := k.pattern() + ", RowKey " + rk.template
	if len(rk.rows) > 0 {
		pattern += " and a secondary row " + strings.Join(rk.rows, ", ")
	}
	var names []string
	ix := append([]keygen.IndexSpec(nil), g.inherit...)
	for _, d := range f.ix {
		ix = append(ix, d.spec())
		names = append(names, d.label())
	}
	if len(names) > 0 {
		name += "+" + strings.Join(names, "+")
		pattern += ", index " + strings.Join(names, ", ")
	}
	spec := keygen.SchemeSpec{Name: name, PartitionKey: k.template(), RowKey: rk.template, Rows: rk.rows, Indexes: ix}
	if g.in.serial {
		u := specOf{pattern: pattern}
		if u.spec, u.err = g.in.unique(spec); u.err != nil {
			u.err = fmt.Errorf("candidate %s: %w", name, u.err)
		}
		return u
	}
	key := runKey(spec)
	g.mu.Lock()
	u, ok := g.specs[key]
	g.mu.Unlock()
	if !ok {
		// Two asking at once both work it out, to the same spec.
		u.spec, u.scheme, u.checked, u.err = g.in.uniqueChecked(spec)
		if u.err != nil {
			u.err = fmt.Errorf("candidate %s: %w", name, u.err)
		}
		g.mu.Lock()
		g.specs[key] = u
		g.mu.Unlock()
	}
	u.pattern = pattern
	return u
}

// runKey names what a generated spec is judged as: its name and its
// templates (all CompileScheme reads of it).
func runKey(spec keygen.SchemeSpec) string {
	return spec.Name + "\x00" + spec.Description + "\x00" + signature(spec)
}

// judged is the judgement of the scheme named key, which compile makes:
// the one done, or under way (waited for), or else judged now by the
// caller with ctx.
func (g *generator) judged(ctx context.Context, key string, compile func() (*keygen.Scheme, *keygen.CheckResult, error)) *run {
	g.mu.Lock()
	r, mine := g.runs[key], false
	if r == nil {
		r, mine = &run{done: make(chan struct{})}, true
		g.runs[key] = r
	}
	g.mu.Unlock()
	if mine {
		var checked *keygen.CheckResult
		if r.scheme, checked, r.err = compile(); r.err == nil {
			if checked != nil {
				r.p, r.err = g.in.JudgeChecked(ctx, r.scheme, *checked)
			} else {
				r.p, r.err = g.in.Judge(ctx, r.scheme)
			}
		}
		close(r.done)
	}
	<-r.done
	return r
}

// judgement is candidate c's judgement (compiling its scheme from its
// spec unless it has one, as the scenario's own do).
func (g *generator) judgement(ctx context.Context, c *Candidate) *run {
	if g.in.serial {
		return g.serialJudgement(ctx, c)
	}
	key := runKey(c.Spec)
	if c.Scheme != nil {
		key = fmt.Sprintf("\x01own %p", c.Scheme)
	}
	return g.judged(ctx, key, func() (*keygen.Scheme, *keygen.CheckResult, error) {
		if c.Scheme != nil {
			return c.Scheme, nil, nil
		}
		// A spec made unique unchanged was compiled and checked then.
		g.mu.Lock()
		u, ok := g.specs[key]
		g.mu.Unlock()
		if ok && u.scheme != nil && runKey(u.spec) == key {
			return u.scheme, &u.checked, nil
		}
		s, err := keygen.CompileScheme(g.in.Pop, c.Spec)
		if err != nil {
			return nil, nil, fmt.Errorf("candidate %s: %w", c.Spec.Name, err)
		}
		return s, nil, nil
	})
}

// ahead starts workers, one a core, that judge forms fs (and each form
// with the index tables its judgement asks for) in their order, ahead of
// the generator's pass; the pass takes their judgements as it reaches
// them. The function returned stops the workers and waits for them.
func (g *generator) ahead(fs []form) func() {
	ctx, cancel := context.WithCancel(g.ctx)
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	if g.in.serial {
		workers = 0
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				n := int(next.Add(1)) - 1
				if n >= len(fs) {
					return
				}
				g.aheadForm(ctx, fs[n])
			}
		}()
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// aheadForm judges form f as the generator's try will, and the form with
// the index tables its judgement asks for.
func (g *generator) aheadForm(ctx context.Context, f form) {
	c := g.aheadBuild(ctx, f)
	if c == nil {
		return
	}
	if ds := g.in.indexDesigns(c); len(ds) > 0 {
		g.aheadBuild(ctx, form{k: f.k, rk: f.rk, ix: ds})
	}
}

// aheadBuild judges form f as the generator's build will (one of the
// scenario's own when it has the same templates), or nil when it cannot.
func (g *generator) aheadBuild(ctx context.Context, f form) *Candidate {
	sp := g.spec(f)
	if sp.err != nil {
		return nil
	}
	c := &Candidate{Spec: sp.spec}
	for i, s := range g.in.Own {
		if own := g.in.Scenario.SchemeSpec(i); signature(own) == signature(sp.spec) {
			c = &Candidate{Spec: own, Scheme: s}
		}
	}
	r := g.judgement(ctx, c)
	if r.err != nil {
		return nil
	}
	c.Prediction = r.p
	return c
}

// serialJudgement is candidate c's judgement made now, as the generator
// made it before workers judged ahead: the reference for them.
func (g *generator) serialJudgement(ctx context.Context, c *Candidate) *run {
	r := &run{scheme: c.Scheme}
	if r.scheme == nil {
		if r.scheme, r.err = keygen.CompileScheme(g.in.Pop, c.Spec); r.err != nil {
			r.err = fmt.Errorf("candidate %s: %w", c.Spec.Name, r.err)
			return r
		}
	}
	r.p, r.err = g.in.Judge(ctx, r.scheme)
	return r
}
