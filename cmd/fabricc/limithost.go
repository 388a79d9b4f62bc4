package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
)

// hostLimit rewrites the --limit of verify and diff so that a term
// naming a host of the fabric selects the switches its NICs are cabled
// to (the fabric's cabling, each switch port's peer), and the host
// itself when the inventory lists it: "--limit gpu09" answers "which
// switches does gpu09's traffic cross first" and checks them. It writes
// one note per such term, "gpu09: leaf3 (1/1), leaf4 (1/2)", to w.
// Only a plain term is read so: a glob, an exclusion ("!gpu09") and an
// intersection ("&gpu09") keep their meaning over the inventory's
// names. A switch the inventory does not list is named in the note and
// left out; a term none of whose switches the inventory lists, for a
// host it does not list either, is left as it is, for Select to refuse
// with its own message.
func hostLimit(w io.Writer, f *model.Fabric, inv *inventory.Inventory, limit string) string {
	if strings.TrimSpace(limit) == "" {
		return limit
	}
	terms := strings.Split(limit, ",")
	for i, term := range terms {
		term = strings.TrimSpace(term)
		if term == "" || strings.ContainsAny(term, "!&*?[\\") {
			continue
		}
		links := hostLinks(f, term)
		if len(links) == 0 {
			continue
		}
		var picked, unlisted []string
		for _, l := range links {
			if inv.Device(l.sw) == nil {
				unlisted = appendOnce(unlisted, l.sw)
			} else {
				picked = appendOnce(picked, l.sw)
			}
		}
		if inv.Device(term) != nil {
			picked = append(picked, term)
		}
		fmt.Fprintln(w, quote.Visible(hostLimitNote(term, links, unlisted, inv.Device(term) != nil)))
		if len(picked) > 0 {
			terms[i] = strings.Join(picked, ",")
		}
	}
	return strings.Join(terms, ",")
}

// hostLink is one cable from a host NIC to a switch port.
type hostLink struct{ sw, port string }

// hostLinks are the switch ports cabled to host, in the fabric's switch
// and port order.
func hostLinks(f *model.Fabric, host string) []hostLink {
	var out []hostLink
	for _, sw := range f.Switches {
		for _, p := range sw.Ports {
			if p.Peer != nil && p.Peer.Kind == "host" && p.Peer.Device == host {
				out = append(out, hostLink{sw.Name, p.Name})
			}
		}
	}
	return out
}

// hostLimitNote is "note: --limit gpu09 is a host of the fabric; it
// selects the switches its NICs are cabled to: gpu09: leaf3 (1/1),
// leaf4 (1/2)", each switch once with its ports, then what else the
// term selects or leaves out.
func hostLimitNote(host string, links []hostLink, unlisted []string, listed bool) string {
	var order []string
	ports := map[string][]string{}
	for _, l := range links {
		order = appendOnce(order, l.sw)
		ports[l.sw] = append(ports[l.sw], l.port)
	}
	parts := make([]string, len(order))
	for i, sw := range order {
		parts[i] = fmt.Sprintf("%s (%s)", sw, strings.Join(ports[sw], ", "))
	}
	note := fmt.Sprintf("note: --limit %s is a host of the fabric; it selects the switches its NICs are cabled to: %s: %s", host, host, strings.Join(parts, ", "))
	if listed {
		note += "; and " + host + " itself"
	}
	if len(unlisted) > 0 {
		note += "; not in the inventory, so left out: " + strings.Join(unlisted, ", ")
	}
	return note
}

// appendOnce appends s to list unless it is there.
func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
