package openconfig

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"text/template"

	"gopkg.in/yaml.v3"

	"github.com/fabricc/fabricc/model"
)

// gnmicUpdateItem and gnmicSetRequestFile mirror gnmic's request file
// types (openconfig/gnmic pkg/config/set.go, UpdateItem and
// SetRequestFile, same tags). The module itself is not served by the Go
// module proxy this project builds from, so the test reads the file the
// way gnmic does: a Go text/template first, then YAML into these types.
type gnmicUpdateItem struct {
	Path     string `yaml:"path,omitempty"`
	Value    any    `yaml:"value,omitempty"`
	Encoding string `yaml:"encoding,omitempty"`
}

type gnmicSetRequestFile struct {
	Updates  []*gnmicUpdateItem `yaml:"updates,omitempty"`
	Replaces []*gnmicUpdateItem `yaml:"replaces,omitempty"`
	Deletes  []string           `yaml:"deletes,omitempty"`
}

// readAsGnmic runs data through text/template as gnmic does (it must come
// out unchanged: no template action in a fabric's strings) and decodes it
// into gnmic's shape, refusing members gnmic does not know.
func readAsGnmic(t *testing.T, data []byte) *gnmicSetRequestFile {
	t.Helper()
	tpl, err := template.New("set-request-0").Parse(string(data))
	if err != nil {
		t.Fatalf("gnmic would refuse the file as a template: %v", err)
	}
	var out bytes.Buffer
	if err := tpl.Execute(&out, struct{ TargetName string }{"sp1"}); err != nil {
		t.Fatalf("template: %v", err)
	}
	if !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("gnmic's template step changes the file:\n%s", out.String())
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f gnmicSetRequestFile
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("decoding as gnmic's SetRequestFile: %v", err)
	}
	for _, u := range append(append([]*gnmicUpdateItem(nil), f.Replaces...), f.Updates...) {
		if u.Path == "" || u.Path == "/" || u.Path == "/qos" || u.Encoding != "json_ietf" {
			t.Errorf("item %q encoding %q: want a path below / and /qos, encoding json_ietf", u.Path, u.Encoding)
		}
	}
	return &f
}

// revision is one build of the review's test fabric: an EOS switch with
// an access port, two trunks and a port that becomes routed.
func revision(second bool) (*model.Fabric, *model.Switch) {
	q := model.QoS{
		Classes: []model.Class{
			{Name: "default", TrafficClass: 0, DSCP: []int{0}, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 30}},
			{Name: "roce", Priority: 3, TrafficClass: 3, DSCP: []int{26, 27}, Lossless: true,
				ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 60},
				ECN: &model.ECN{MinBytes: 153600, MaxBytes: 1536000, MarkProbabilityPercent: 100}},
			{Name: "cnp", Priority: 6, TrafficClass: 6, DSCP: []int{48}, ETS: model.ETS{Mode: model.ETSStrict}},
			{Name: "bulk", Priority: 1, TrafficClass: 1, DSCP: []int{10, 12}, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 10}},
		},
		RoCEClass: "roce", CNPClass: "cnp",
	}
	ports := []model.Port{
		{Name: "Ethernet1/1", Description: "uplink <b>&amp; {{x}}", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeAccess, AccessVLAN: 10, Trust: model.TrustDSCP},
		{Name: "Ethernet2/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeTrunk, TrunkVLANs: []int{10, 20}, NativeVLAN: 10, Trust: model.TrustDSCP},
		{Name: "Ethernet3/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeTrunk, TrunkVLANs: []int{10, 20}, Trust: model.TrustPCP},
		{Name: "Ethernet4/1", SpeedMbps: 100000, MTU: 9214, Mode: model.ModeTrunk, TrunkVLANs: []int{10, 20}, Trust: model.TrustDSCP},
	}
	if second {
		q.Classes = q.Classes[:3]
		q.Classes[0].DSCP = []int{0, 10, 12, 27}
		q.Classes[0].ETS.BandwidthPercent = 40
		q.Classes[1].DSCP = []int{26}
		ports[0].Description = ""
		ports[1].TrunkVLANs, ports[1].NativeVLAN = []int{10}, 0
		ports[3].Mode, ports[3].TrunkVLANs = model.ModeRouted, nil
	}
	f := &model.Fabric{Name: "oc1", QoS: q, VLANs: []model.VLAN{{ID: 10, Name: "rdma"}, {ID: 20, Name: "stor"}},
		Switches: []model.Switch{{Name: "sp1", Platform: model.PlatformEOS, OSVersion: "4.32.2F", Ports: ports}}}
	return f, &f.Switches[0]
}

// renderSet returns the OpenConfig JSON and the set request of sw.
func renderSet(t *testing.T, f *model.Fabric, sw *model.Switch) (doc, set []byte) {
	t.Helper()
	files, err := Render(f, sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		switch file.Name {
		case sw.Name + ".openconfig.json":
			doc = file.Data
		case sw.Name + ".openconfig-set.json":
			set = file.Data
		}
	}
	if doc == nil || set == nil {
		t.Fatalf("Render wrote no JSON or no set request: %d files", len(files))
	}
	return doc, set
}

// TestSetRequestBringsTheDeviceToTheFabric applies the second revision's
// set request to a device holding the first revision's JSON, as a gNMI
// target does (deletes, then replaces, then updates: gNMI specification
// 3.4.3), and finds the device equal to the second revision's JSON but
// for the queue and forwarding group of the class the fabric dropped,
// which one build cannot know. A merge of the whole JSON at / leaves the
// old DSCP, VLANs and description in place.
func TestSetRequestBringsTheDeviceToTheFabric(t *testing.T) {
	f1, sw1 := revision(false)
	f2, sw2 := revision(true)
	doc1, _ := renderSet(t, f1, sw1)
	doc2, set2 := renderSet(t, f2, sw2)
	req := readAsGnmic(t, set2)

	device := decodeTree(t, doc1)
	emu := &gnmiEmulator{t: t, root: device}
	for _, p := range req.Deletes {
		emu.delete(p)
	}
	for _, r := range req.Replaces {
		emu.replace(r.Path, reencode(t, r.Value))
	}
	for _, u := range req.Updates {
		emu.update(u.Path, reencode(t, u.Value))
	}

	facts := []struct{ what, path, want string }{
		{"roce term DSCP", "/qos/classifiers/classifier[name=dscp-ipv4]/terms/term[id=roce]/conditions/ipv4/config/dscp-set", "[26]"},
		{"default term DSCP", "/qos/classifiers/classifier[name=dscp-ipv4]/terms/term[id=default]/conditions/ipv4/config/dscp-set", "[0,10,12,27]"},
		{"bulk term", "/qos/classifiers/classifier[name=dscp-ipv6]/terms/term[id=bulk]", "null"},
		{"bulk WRR input", "/qos/scheduler-policies/scheduler-policy[name=ets]/schedulers/scheduler[sequence=1]/inputs/input[id=bulk]", "null"},
		{"trunk VLANs", "/interfaces/interface[name=Ethernet2/1]/ethernet/switched-vlan/config/trunk-vlans", "[10]"},
		{"native VLAN", "/interfaces/interface[name=Ethernet2/1]/ethernet/switched-vlan/config/native-vlan", "null"},
		{"description", "/interfaces/interface[name=Ethernet1/1]/config/description", "null"},
		{"routed port's switched-vlan", "/interfaces/interface[name=Ethernet4/1]/ethernet/switched-vlan", "null"},
		{"routed port's IPv4", "/interfaces/interface[name=Ethernet4/1]/subinterfaces/subinterface[index=0]/ipv4/config", `{"enabled":true,"mtu":9214}`},
	}
	for _, c := range facts {
		if got := emu.get(c.path); got != c.want {
			t.Errorf("%s after the set request: %s, want %s", c.what, got, c.want)
		}
	}

	// What one build cannot know: the dropped class's queue and group.
	emu.delete("/qos/queues/queue[name=bulk]")
	emu.delete("/qos/forwarding-groups/forwarding-group[name=bulk]")
	if want := decodeTree(t, doc2); !reflect.DeepEqual(device, want) {
		got, _ := json.MarshalIndent(device, "", "  ")
		t.Errorf("device after the set request differs from the second revision's JSON:\n%s", got)
	}

	merged := &gnmiEmulator{t: t, root: decodeTree(t, doc1)}
	merged.update("/", decodeTree(t, doc2))
	if got := merged.get(facts[0].path); got != "[26,27]" {
		t.Errorf("a merge at / gives roce DSCP %s; the emulator should keep 27 as a gNMI update does", got)
	}
}

// TestSetRequestContent is the whole request file of a small fabric.
func TestSetRequestContent(t *testing.T) {
	f := &model.Fabric{Name: "s",
		QoS: model.QoS{Classes: []model.Class{
			{Name: "default", TrafficClass: 0, DSCP: []int{0}, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 100}},
			{Name: "roce", Priority: 3, TrafficClass: 3, DSCP: []int{26}, Lossless: true, ETS: model.ETS{Mode: model.ETSStrict},
				ECN: &model.ECN{MinBytes: 1000, MaxBytes: 2000, MarkProbabilityPercent: 50}},
		}, RoCEClass: "roce"},
		VLANs: []model.VLAN{{ID: 10, Name: "rdma"}},
		Switches: []model.Switch{{Name: "s1", Platform: model.PlatformCumulus, OSVersion: "5.9.2", Ports: []model.Port{
			{Name: "swp1", Description: "h1 {{.TargetName}}", SpeedMbps: 100000, MTU: 9216, Mode: model.ModeAccess, AccessVLAN: 10, Trust: model.TrustDSCP},
			{Name: "swp2", SpeedMbps: 100000, Mode: model.ModeRouted, Trust: model.TrustPCP},
		}}}}
	_, set := renderSet(t, f, &f.Switches[0])
	readAsGnmic(t, set)
	if got := string(set); got != wantSmallSet {
		t.Errorf("set request:\n%s\nwant:\n%s", got, wantSmallSet)
	}
}

// decodeTree decodes JSON with numbers kept as written and every RFC
// 7951 module prefix removed from member names.
func decodeTree(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return strip(v)
}

// reencode turns a value decoded from YAML into the tree decodeTree makes.
func reencode(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decodeTree(t, b)
}

// strip removes module prefixes from member names throughout v.
func strip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if i := strings.IndexByte(k, ':'); i >= 0 {
				k = k[i+1:]
			}
			out[k] = strip(e)
		}
		return out
	case []any:
		for i := range v {
			v[i] = strip(v[i])
		}
	}
	return v
}

// gnmiEmulator holds a device's configuration as a JSON tree and applies
// gNMI Set operations to it (gNMI specification 3.4.4 to 3.4.6): delete
// removes the node, replace sets it to the value (so whatever the value
// lacks is gone), update merges (objects member by member, list entries
// by key, leaf-lists by adding values).
type gnmiEmulator struct {
	t    *testing.T
	root any
}

// pathElem is one element of a gNMI path: name and keys.
type pathElem struct {
	name string
	keys map[string]string
}

// parsePath splits a gNMI path string, keeping "/" inside key values and
// reading "\" escapes.
func parsePath(p string) []pathElem {
	var out []pathElem
	var cur pathElem
	var b strings.Builder
	var keyName string
	inKey := false
	flush := func() {
		if b.Len() > 0 || cur.keys != nil {
			cur.name = b.String()
			out = append(out, cur)
		}
		cur, b = pathElem{}, strings.Builder{}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case inKey && c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case inKey && c == '=' && keyName == "":
			keyName = b.String()
			b.Reset()
		case inKey && c == ']':
			cur.keys[keyName] = b.String()
			b.Reset()
			inKey, keyName = false, ""
		case inKey:
			b.WriteByte(c)
		case c == '[':
			if cur.keys == nil {
				cur.keys = map[string]string{}
				cur.name = b.String()
			}
			b.Reset()
			inKey = true
		case c == '/':
			if cur.keys != nil {
				out = append(out, cur)
				cur, b = pathElem{}, strings.Builder{}
			} else {
				flush()
			}
		default:
			b.WriteByte(c)
		}
	}
	if cur.keys != nil {
		out = append(out, cur)
	} else {
		flush()
	}
	return out
}

// matches reports whether list entry e has the keys of elem.
func matches(e any, keys map[string]string) bool {
	m, ok := e.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range keys {
		if got, ok := m[k]; !ok || toText(got) != v {
			return false
		}
	}
	return true
}

// toText is a scalar's text.
func toText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// walk returns the object holding the last element of path, creating
// the containers and list entries on the way when create is set.
func (e *gnmiEmulator) walk(path []pathElem, create bool) map[string]any {
	cur, _ := e.root.(map[string]any)
	for _, el := range path[:len(path)-1] {
		if cur == nil {
			return nil
		}
		cur = child(cur, el, create)
	}
	return cur
}

// child returns the object of el below cur (a container member, or a
// list entry by key).
func child(cur map[string]any, el pathElem, create bool) map[string]any {
	if el.keys == nil {
		next, ok := cur[el.name].(map[string]any)
		if !ok && create {
			next = map[string]any{}
			cur[el.name] = next
		}
		return next
	}
	entries, _ := cur[el.name].([]any)
	for _, en := range entries {
		if matches(en, el.keys) {
			return en.(map[string]any)
		}
	}
	if !create {
		return nil
	}
	next := map[string]any{}
	for k, v := range el.keys {
		next[k] = v
	}
	cur[el.name] = append(entries, next)
	return next
}

// get returns the node at path as compact JSON, or "null".
func (e *gnmiEmulator) get(p string) string {
	path := parsePath(p)
	parent := e.walk(path, false)
	if parent == nil {
		return "null"
	}
	last := path[len(path)-1]
	var v any = parent[last.name]
	if last.keys != nil {
		v = child(parent, last, false)
		if v.(map[string]any) == nil {
			return "null"
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// delete removes the node at path; a missing node is no error.
func (e *gnmiEmulator) delete(p string) {
	path := parsePath(p)
	parent := e.walk(path, false)
	if parent == nil {
		return
	}
	last := path[len(path)-1]
	if last.keys == nil {
		delete(parent, last.name)
		return
	}
	entries, _ := parent[last.name].([]any)
	var kept []any
	for _, en := range entries {
		if !matches(en, last.keys) {
			kept = append(kept, en)
		}
	}
	parent[last.name] = kept
}

// replace sets the node at path to value.
func (e *gnmiEmulator) replace(p string, value any) {
	path := parsePath(p)
	e.delete(p)
	parent := e.walk(path, true)
	last := path[len(path)-1]
	if last.keys == nil {
		parent[last.name] = value
		return
	}
	entries, _ := parent[last.name].([]any)
	parent[last.name] = append(entries, value)
}

// update merges value into the node at path.
func (e *gnmiEmulator) update(p string, value any) {
	path := parsePath(p)
	if len(path) == 0 {
		e.root = merge(e.root, value)
		return
	}
	parent := e.walk(path, true)
	last := path[len(path)-1]
	if last.keys == nil {
		parent[last.name] = merge(parent[last.name], value)
		return
	}
	node := child(parent, last, true)
	for k, v := range merge(node, value).(map[string]any) {
		node[k] = v
	}
}

// listKeys are the key leaves of the lists the documents hold.
var listKeys = []string{"name", "interface-id", "id", "sequence", "vlan-id", "type"}

// merge merges src into dst as a gNMI update does.
func merge(dst, src any) any {
	switch s := src.(type) {
	case map[string]any:
		d, ok := dst.(map[string]any)
		if !ok {
			d = map[string]any{}
		}
		for k, v := range s {
			d[k] = merge(d[k], v)
		}
		return d
	case []any:
		d, _ := dst.([]any)
		for _, v := range s {
			d = mergeEntry(d, v)
		}
		return d
	}
	return src
}

// mergeEntry merges v into list or leaf-list d: an entry with the same
// key is merged, a leaf-list value already there is kept once.
func mergeEntry(d []any, v any) []any {
	m, isEntry := v.(map[string]any)
	for i, old := range d {
		if !isEntry {
			if toText(old) == toText(v) {
				return d
			}
			continue
		}
		for _, k := range listKeys {
			if kv, ok := m[k]; ok {
				if o, ok := old.(map[string]any); ok && toText(o[k]) == toText(kv) {
					d[i] = merge(old, v)
					return d
				}
				break
			}
		}
	}
	return append(d, v)
}

// wantSmallSet is TestSetRequestContent's file: read line by line against
// the rules in setrequest.go.
const wantSmallSet = `{
  "deletes": [
    "/interfaces/interface[name=swp2]/ethernet/switched-vlan",
    "/interfaces/interface[name=swp2]/config/description"
  ],
  "replaces": [
    {
      "encoding": "json_ietf",
      "path": "/interfaces/interface[name=swp1]/ethernet/switched-vlan",
      "value": {
        "openconfig-vlan:config": {
          "access-vlan": 10,
          "interface-mode": "ACCESS"
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/classifiers/classifier[name=dscp-ipv4]",
      "value": {
        "openconfig-qos:config": {
          "name": "dscp-ipv4",
          "type": "IPV4"
        },
        "openconfig-qos:name": "dscp-ipv4",
        "openconfig-qos:terms": {
          "term": [
            {
              "actions": {
                "config": {
                  "target-group": "default"
                }
              },
              "conditions": {
                "ipv4": {
                  "config": {
                    "dscp-set": [
                      0
                    ]
                  }
                }
              },
              "config": {
                "id": "default"
              },
              "id": "default"
            },
            {
              "actions": {
                "config": {
                  "target-group": "roce"
                }
              },
              "conditions": {
                "ipv4": {
                  "config": {
                    "dscp-set": [
                      26
                    ]
                  }
                }
              },
              "config": {
                "id": "roce"
              },
              "id": "roce"
            }
          ]
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/classifiers/classifier[name=dscp-ipv6]",
      "value": {
        "openconfig-qos:config": {
          "name": "dscp-ipv6",
          "type": "IPV6"
        },
        "openconfig-qos:name": "dscp-ipv6",
        "openconfig-qos:terms": {
          "term": [
            {
              "actions": {
                "config": {
                  "target-group": "default"
                }
              },
              "conditions": {
                "ipv6": {
                  "config": {
                    "dscp-set": [
                      0
                    ]
                  }
                }
              },
              "config": {
                "id": "default"
              },
              "id": "default"
            },
            {
              "actions": {
                "config": {
                  "target-group": "roce"
                }
              },
              "conditions": {
                "ipv6": {
                  "config": {
                    "dscp-set": [
                      26
                    ]
                  }
                }
              },
              "config": {
                "id": "roce"
              },
              "id": "roce"
            }
          ]
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/forwarding-groups/forwarding-group[name=default]",
      "value": {
        "openconfig-qos:config": {
          "name": "default",
          "output-queue": "default"
        },
        "openconfig-qos:name": "default"
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/forwarding-groups/forwarding-group[name=roce]",
      "value": {
        "openconfig-qos:config": {
          "name": "roce",
          "output-queue": "roce"
        },
        "openconfig-qos:name": "roce"
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/queue-management-profiles/queue-management-profile[name=roce-ecn]",
      "value": {
        "openconfig-qos:config": {
          "name": "roce-ecn"
        },
        "openconfig-qos:name": "roce-ecn",
        "openconfig-qos:wred": {
          "uniform": {
            "config": {
              "enable-ecn": true,
              "max-drop-probability-percent": 50,
              "max-threshold": "2000",
              "min-threshold": "1000"
            }
          }
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/queues/queue[name=default]",
      "value": {
        "openconfig-qos:config": {
          "name": "default",
          "queue-id": 0
        },
        "openconfig-qos:name": "default"
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/queues/queue[name=roce]",
      "value": {
        "openconfig-qos:config": {
          "name": "roce",
          "queue-id": 3
        },
        "openconfig-qos:name": "roce"
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/scheduler-policies/scheduler-policy[name=ets]",
      "value": {
        "openconfig-qos:config": {
          "name": "ets"
        },
        "openconfig-qos:name": "ets",
        "openconfig-qos:schedulers": {
          "scheduler": [
            {
              "config": {
                "priority": "STRICT",
                "sequence": 0
              },
              "inputs": {
                "input": [
                  {
                    "config": {
                      "id": "roce",
                      "input-type": "QUEUE",
                      "queue": "roce",
                      "weight": "3"
                    },
                    "id": "roce"
                  }
                ]
              },
              "sequence": 0
            },
            {
              "config": {
                "sequence": 1
              },
              "inputs": {
                "input": [
                  {
                    "config": {
                      "id": "default",
                      "input-type": "QUEUE",
                      "queue": "default",
                      "weight": "100"
                    },
                    "id": "default"
                  }
                ]
              },
              "sequence": 1
            }
          ]
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/interfaces/interface[interface-id=swp1]",
      "value": {
        "openconfig-qos:config": {
          "interface-id": "swp1"
        },
        "openconfig-qos:input": {
          "classifiers": {
            "classifier": [
              {
                "config": {
                  "name": "dscp-ipv4",
                  "type": "IPV4"
                },
                "type": "IPV4"
              },
              {
                "config": {
                  "name": "dscp-ipv6",
                  "type": "IPV6"
                },
                "type": "IPV6"
              }
            ]
          }
        },
        "openconfig-qos:interface-id": "swp1",
        "openconfig-qos:interface-ref": {
          "config": {
            "interface": "swp1"
          }
        },
        "openconfig-qos:output": {
          "queues": {
            "queue": [
              {
                "config": {
                  "name": "roce",
                  "queue-management-profile": "roce-ecn"
                },
                "name": "roce"
              }
            ]
          },
          "scheduler-policy": {
            "config": {
              "name": "ets"
            }
          }
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/qos/interfaces/interface[interface-id=swp2]",
      "value": {
        "openconfig-qos:config": {
          "interface-id": "swp2"
        },
        "openconfig-qos:interface-id": "swp2",
        "openconfig-qos:interface-ref": {
          "config": {
            "interface": "swp2"
          }
        },
        "openconfig-qos:output": {
          "queues": {
            "queue": [
              {
                "config": {
                  "name": "roce",
                  "queue-management-profile": "roce-ecn"
                },
                "name": "roce"
              }
            ]
          },
          "scheduler-policy": {
            "config": {
              "name": "ets"
            }
          }
        }
      }
    }
  ],
  "updates": [
    {
      "encoding": "json_ietf",
      "path": "/interfaces/interface[name=swp1]",
      "value": {
        "openconfig-if-ethernet:ethernet": {
          "config": {
            "enable-flow-control": false,
            "port-speed": "openconfig-if-ethernet:SPEED_100GB"
          }
        },
        "openconfig-interfaces:config": {
          "description": "h1 \u007b\u007b.TargetName\u007d\u007d",
          "enabled": true,
          "mtu": 9230,
          "name": "swp1",
          "type": "iana-if-type:ethernetCsmacd"
        },
        "openconfig-interfaces:name": "swp1"
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/interfaces/interface[name=swp2]",
      "value": {
        "openconfig-if-ethernet:ethernet": {
          "config": {
            "enable-flow-control": false,
            "port-speed": "openconfig-if-ethernet:SPEED_100GB"
          }
        },
        "openconfig-interfaces:config": {
          "enabled": true,
          "name": "swp2",
          "type": "iana-if-type:ethernetCsmacd"
        },
        "openconfig-interfaces:name": "swp2",
        "openconfig-interfaces:subinterfaces": {
          "subinterface": [
            {
              "config": {
                "index": 0
              },
              "index": 0,
              "openconfig-if-ip:ipv4": {
                "config": {
                  "enabled": true
                }
              }
            }
          ]
        }
      }
    },
    {
      "encoding": "json_ietf",
      "path": "/network-instances/network-instance[name=default]",
      "value": {
        "openconfig-network-instance:config": {
          "name": "default",
          "type": "openconfig-network-instance-types:DEFAULT_INSTANCE"
        },
        "openconfig-network-instance:name": "default",
        "openconfig-network-instance:vlans": {
          "vlan": [
            {
              "config": {
                "name": "rdma",
                "vlan-id": 10
              },
              "vlan-id": 10
            }
          ]
        }
      }
    }
  ]
}
`
