package artifacts

// What Check found of one path.
const (
	Changed = "changed" // in both, other bytes or another mode
	Added   = "new"     // the build writes it; the folder lacks it
	Removed = "removed" // the folder holds it; the build does not write it
)

// Difference is one path where a folder is not what a build writes:
// Path with slashes, relative to the folder; Old the folder's bytes
// (nil when Added), New the build's (nil when Removed).
type Difference struct {
	Path     string
	Kind     string
	Old, New []byte
}
