package targets

import (
	"reflect"
	"strings"
	"testing"
)

// lines renders a source map as "a|b" per line ("" for fixed text),
// parts joined by "/".
func lines(m *SourceMap) []string {
	out := make([]string, len(m.Lines))
	for i, l := range m.Lines {
		var s []string
		for _, e := range l {
			s = append(s, e.String())
		}
		out[i] = strings.Join(s, "|")
	}
	return out
}

func TestTextSourceMap(t *testing.T) {
	tests := []struct {
		name  string
		write func(t *Text)
		want  []string
	}{
		{"one element per block, fixed in between", func(t *Text) {
			t.At("switch", "s1", "port", "1/1")
			t.WriteString("a\nb\n")
			t.Fixed("##\n")
			t.WriteString("c\n")
			t.At()
			t.WriteString("d\n")
		}, []string{"switch/s1/port/1/1", "switch/s1/port/1/1", "", "switch/s1/port/1/1", ""}},
		{"also adds, a change in mid-line joins the line", func(t *Text) {
			t.At("vlan", "10")
			t.Also("vlan", "20")
			t.WriteString("x ")
			t.At("qos")
			t.WriteString("y\nz")
		}, []string{"vlan/10|vlan/20|qos", "qos"}},
		{"append adds the current element to each appended line", func(t *Text) {
			u := NewText(true)
			u.At("qos", "class", "roce")
			u.WriteString("q1\n")
			u.Fixed("!\n")
			t.At("switch", "s1", "port", "p")
			t.Append(u)
			t.WriteString("after\n")
		}, []string{"switch/s1/port/p|qos/class/roce", "switch/s1/port/p", "switch/s1/port/p"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mapped := NewText(true)
			tc.write(mapped)
			if got := lines(mapped.SourceMap()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("map %q, want %q", got, tc.want)
			}
			plain := NewText(false)
			tc.write(plain)
			if plain.String() != mapped.String() || plain.SourceMap() != nil {
				t.Errorf("unmapped text %q (map %v), mapped %q", plain.String(), plain.SourceMap(), mapped.String())
			}
		})
	}
}

func TestMapJSON(t *testing.T) {
	data := []byte(`{
  "ports": [
    {
      "mtu": 9216,
      "name": "swp1"
    }
  ],
  "x:vlans": [
    10,
    20
  ]
}
`)
	m, err := MapJSON(data, func(path []*JSONNode) []Element {
		n := path[len(path)-1]
		switch {
		case len(path) == 3 && path[1].Key == "ports":
			return []Element{Path("port", n.Child("name").Value)}
		case len(path) == 3 && path[1].Key == "vlans":
			return []Element{Path("vlan", n.Value)}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "", "port/swp1", "port/swp1", "port/swp1", "port/swp1", "", "", "vlan/10", "vlan/20", "", ""}
	if got := lines(m); !reflect.DeepEqual(got, want) {
		t.Errorf("map %q, want %q", got, want)
	}
}
