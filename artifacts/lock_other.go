//go:build !unix && !windows

package artifacts

import "context"

// lockOutput does nothing where neither flock(2) nor LockFileEx exists
// (js/wasm, Plan 9, WASI): builds into one folder must not run at once
// there.
func lockOutput(ctx context.Context, dir string, waiting func(pid int)) (func(), error) {
	return func() {}, nil
}
