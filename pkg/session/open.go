package session

import (
	"context"
	"errors"
	"net"
	"net/http"

	"github.com/tablestress/tablestress/pkg/clock"
	"github.com/tablestress/tablestress/pkg/emulator"
	"github.com/tablestress/tablestress/pkg/table"
)

// Session is an open target with a compiled run: what run, seed, compare,
// find and the proof share. Close it when done.
type Session struct {
	o      Options
	target table.Target
	svc    *table.Service
	// embedded is the service started for an embedded target, nil else.
	embedded *Embedded
	model    string
	units    float64
	vclock   *clock.Virtual
	closers  []func()
}

// reach is how the client reaches the embedded service other than by the
// network: its dialer or its transport in process.
type reach struct {
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	rt   http.RoundTripper
}

// Open starts what o asks for (the embedded service, a virtual clock),
// calls o.Before with the target, and connects to it. On an error nothing
// it started is left running.
func Open(o Options) (*Session, error) {
	if o.Spec == nil {
		return nil, errors.New("session: Options.Spec is nil: compile the scenario with plan.Build")
	}
	ss := &Session{o: o, units: o.PartitionUnits}
	tg, r, err := ss.start()
	if err != nil {
		ss.Close()
		return nil, err
	}
	if o.Before != nil {
		if err := o.Before(tg); err != nil {
			ss.Close()
			return nil, err
		}
	}
	if err := ss.connect(tg, r); err != nil {
		ss.Close()
		return nil, err
	}
	return ss, nil
}

// start starts the embedded service of an embedded target and returns the
// target bound to it; for another target it checks the clock asked for.
func (ss *Session) start() (table.Target, reach, error) {
	o := ss.o
	if o.Target.Kind != table.KindEmbedded {
		_, err := ChooseClock(o.Clock, o.ClockGiven, o.Target, false, emulator.Config{})
		return o.Target, reach{}, err
	}
	inProcess := o.Transport != Socket && o.Start == nil
	var err error
	if ss.vclock, err = ChooseClock(o.Clock, o.ClockGiven, o.Target, inProcess, o.Embedded); err != nil {
		return table.Target{}, reach{}, err
	}
	cfg := o.Embedded
	if ss.vclock != nil {
		cfg.Clock = ss.vclock
	}
	start := func(cfg emulator.Config) (*Embedded, error) { return StartEmbedded(cfg, o.Transport) }
	if o.Start != nil {
		start = o.Start
	}
	es, err := start(cfg)
	if err != nil {
		return table.Target{}, reach{}, err
	}
	ss.closers = append(ss.closers, es.Stop)
	ss.embedded, ss.model = es, cfg.Model.String()
	if cfg.Model.ChargesUnits() && ss.units == 0 {
		ss.units = cfg.Model.Cosmos.PartitionShare()
	}
	tg, err := table.BindEmbedded(es.Conn)
	if err != nil {
		return table.Target{}, reach{}, err
	}
	tg.InProcess = es.RoundTripper != nil
	return tg, reach{dial: es.Dial, rt: es.RoundTripper}, nil
}

// connect opens the client of tg, trusting o.Roots' certificates.
func (ss *Session) connect(tg table.Target, r reach) error {
	o := ss.o
	var opts table.Options
	if o.Roots != nil {
		roots, err := o.Roots()
		if err != nil {
			return err
		}
		opts.RootCAs = roots
	}
	opts.Workers, opts.Timeout, opts.UserAgent = o.Spec.Workers, o.Spec.Timeout, o.UserAgent
	opts.Dial, opts.RoundTripper, opts.Clock = r.dial, r.rt, ss.Clock()
	svc, err := table.Open(tg, opts)
	if err != nil {
		return err
	}
	ss.target, ss.svc = tg, svc
	ss.closers = append(ss.closers, svc.Close)
	return nil
}

// Close closes the connection and stops the embedded service, the last
// opened first. It may be called more than once.
func (ss *Session) Close() {
	for i := len(ss.closers) - 1; i >= 0; i-- {
		ss.closers[i]()
	}
	ss.closers = nil
}
