package push

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
)

// sessionWords are, per platform, the first words of lines that would
// leave or end the configure session, or run an exec command, if a
// configuration held them: EOS "exit" at the top of a session's
// configuration returns to enable mode, where "bash" or "write memory"
// run at once; Onyx's "configuration" and "reload" are exec commands.
// fabricc's renderers never write such a line, and push --artifacts
// already refuses a configuration that differs from a render of its
// model; push refuses to send one anyway, before it opens the session.
var sessionWords = map[model.Platform][]string{
	model.PlatformEOS:  {"exit", "end", "configure", "bash", "write", "copy", "reload", "rollback", "commit", "abort", "delete", "run", "enable", "disable"},
	model.PlatformOnyx: {"exit", "configure", "configuration", "reload", "boot", "image", "ssh", "shell", "enable", "disable"},
}

// refuseSessionLines reports the first line of config whose first word
// is one of sessionWords of platform p.
func refuseSessionLines(p model.Platform, config []byte) error {
	words := sessionWords[p]
	for i, line := range strings.Split(string(config), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, w := range words {
			if f[0] == w {
				return fmt.Errorf("line %d of the configuration starts with %q, a command that leaves the configure session or runs at once, which fabricc never renders; nothing was sent", i+1, w)
			}
		}
	}
	return nil
}
