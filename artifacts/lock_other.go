//go:build !unix && !windows

package artifacts

import (
	"context"
	"errors"
)

// lockOutput does nothing where neither flock(2) nor LockFileEx exists
// (js/wasm, Plan 9, WASI): builds into one folder must not run at once
// there.
func lockOutput(ctx context.Context, dir string, waiting lockWaiters) (func(), error) {
	return func() {}, nil
}

// ReadLock takes no lock where neither flock(2) nor LockFileEx exists:
// the release does nothing and the error, a *NoLockError, says so.
func ReadLock(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	return func() {}, &NoLockError{Dir: dir, Err: errors.New("this system has no file locks")}
}
