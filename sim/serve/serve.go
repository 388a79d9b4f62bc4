// Package serve is the listener the simulators share (the switches of
// package sim and the hosts of sim/host): TCP on 127.0.0.1 only, every
// connection tracked, so that Close ends every session and waits for
// the goroutines that serve them.
package serve

import (
	"context"
	"net"
	"sync"

	"golang.org/x/crypto/ssh"
)

// Listener accepts connections on 127.0.0.1 and hands each to its
// serve function on a goroutine of its own.
type Listener struct {
	ln    net.Listener
	serve func(net.Conn)
	mu    sync.Mutex
	// conns are the open connections, nil once closed.
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// Listen listens on 127.0.0.1:<ephemeral> and serves each connection
// with serve until ctx ends or Close.
func Listen(ctx context.Context, serve func(net.Conn)) (*Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &Listener{ln: ln, serve: serve, conns: map[net.Conn]bool{}}
	l.wg.Add(1)
	go l.accept()
	go func() {
		<-ctx.Done()
		_ = l.Close()
	}()
	return l, nil
}

// Addr is the "127.0.0.1:port" the listener listens on.
func (l *Listener) Addr() string { return l.ln.Addr().String() }

// Go runs f on a goroutine Close waits for (a session of a connection).
func (l *Listener) Go(f func()) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		f()
	}()
}

// Open are the connections open now.
func (l *Listener) Open() []net.Conn {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []net.Conn
	for c := range l.conns {
		out = append(out, c)
	}
	return out
}

// Close stops listening, closes every connection and waits for their
// goroutines.
func (l *Listener) Close() error {
	l.mu.Lock()
	conns := l.conns
	l.conns = nil
	l.mu.Unlock()
	if conns == nil {
		return nil
	}
	err := l.ln.Close()
	for c := range conns {
		c.Close()
	}
	l.wg.Wait()
	return err
}

func (l *Listener) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		if !l.track(c, true) {
			c.Close()
			return
		}
		l.Go(func() {
			defer l.track(c, false)
			l.serve(c)
		})
	}
}

// track registers (add) or forgets a connection; it refuses new ones
// once the listener is closed.
func (l *Listener) track(c net.Conn, add bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !add {
		delete(l.conns, c)
		return true
	}
	if l.conns == nil {
		return false
	}
	l.conns[c] = true
	return true
}

// Sessions serves the session channels of one SSH connection, each with
// run on a goroutine Close waits for; other channel types are refused
// and global requests discarded. It returns when the connection ends.
func (l *Listener) Sessions(chans <-chan ssh.NewChannel, reqs <-chan *ssh.Request, run func(ssh.Channel, <-chan *ssh.Request)) {
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		l.Go(func() { run(ch, creqs) })
	}
}
