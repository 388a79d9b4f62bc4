package windows

import "fmt"

// The per-adapter comments cite the manual of the adapter's own driver:
// WinOF-2 User Manual 1.21 for winof2 (ConnectX-4 and later), WinOF User
// Manual 5.50 for winof (ConnectX-3). No Mellanox manual covers the QLogic
// driver, so its standardized keywords cite Microsoft's keyword pages and
// its VLAN ID the Demartek RoCE Deployment Guide.
const (
	winof2Manual = "WinOF-2 User Manual 1.21"
	winofManual  = "WinOF User Manual 5.50"
	// msEnumerationKeywords is Microsoft's "Enumeration Keywords" page
	// (*FlowControl: 0 Disabled ... 3 Rx & Tx Enabled; *PriorityVLANTag).
	// WinOF User Manual 5.50 §4.6 sends readers of a key that starts with
	// "*" ("a well-known registry key") to Microsoft's documentation.
	msEnumerationKeywords = `Microsoft "Enumeration Keywords"`
	// msEditableKeywords is Microsoft's "Keywords That Can Be Edited" page
	// (*JumboPacket).
	msEditableKeywords = `Microsoft "Keywords That Can Be Edited"`
	demartekQLogic     = "Demartek RoCE Deployment Guide, QLogic adapter settings"
)

// keywordDocs says where each advanced-property keyword the script sets is
// documented for each driver: the registry-key section of the driver's
// manual (WinOF-2 User Manual 1.21 §3.4, WinOF User Manual 5.50 §4.6),
// else Microsoft's page. WinOF User Manual 5.50 has no *FlowControl row.
var keywordDocs = map[string]map[string]string{
	DriverWinOF2: {
		"*JumboPacket":     winof2Manual + " §3.4.2",
		"VlanID":           winof2Manual + " §3.4.4",
		"*PriorityVLANTag": winof2Manual + " §3.4.5",
		"*FlowControl":     winof2Manual + " §3.4.5.1",
	},
	DriverWinOF: {
		"*JumboPacket":     winofManual + " §4.6.3",
		"VlanID":           winofManual + " §4.6.5",
		"*PriorityVLANTag": winofManual + " §4.6.6",
		"*FlowControl":     msEnumerationKeywords,
	},
	DriverQLogic: {
		"*JumboPacket":     msEditableKeywords,
		"VlanID":           demartekQLogic,
		"*PriorityVLANTag": msEnumerationKeywords,
		"*FlowControl":     msEnumerationKeywords,
	},
}

// keywordDoc returns where keyword is documented for an adapter on driver.
func keywordDoc(driver, keyword string) string {
	return keywordDocs[driver][keyword]
}

// isMellanox reports whether driver is one of the Mellanox stacks the
// manuals describe.
func isMellanox(driver string) bool {
	return driver == DriverWinOF || driver == DriverWinOF2
}

// qosStep cites step n of the manual's QoS procedure ("To Configure QoS on
// the Host"): WinOF User Manual 5.50 §4.1.9.2.4 for WinOF, WinOF-2 User
// Manual 1.21 §3.1.5.1 otherwise (a QLogic adapter takes the same Windows
// cmdlets; the Demartek guide's QLogic section adds none).
func qosStep(driver string, n int) string {
	if driver == DriverWinOF {
		return fmt.Sprintf("%s §4.1.9.2.4 step %d", winofManual, n)
	}
	return fmt.Sprintf("%s §3.1.5.1 step %d", winof2Manual, n)
}

// disableFlowControlDoc cites the manual's "To Disable Flow Control
// Configuration", the first item of its QoS configuration.
func disableFlowControlDoc(driver string) string {
	if driver == DriverWinOF {
		return winofManual + " §4.1.9.2.1"
	}
	return winof2Manual + " §3.1.5.1"
}
