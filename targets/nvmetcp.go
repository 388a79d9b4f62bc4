package targets

// NVMeTCPDiscoveryPort is the TCP port of an NVMe/TCP discovery
// controller, which a host asks for the subsystems before it connects
// to their I/O controllers (on the application's port, 4420 by default):
// IANA's nvme-disc, 8009/tcp, the port NVMe/TCP hosts discover on by
// default (libnvme fabrics.h, NVME_DISC_IP_PORT 8009, "Default port for
// NVMe/TCP discovery controllers", which nvme-cli's nvme discover and
// nvme connect-all use without -s). Discovery and its persistent
// connection (the discovery controller's keep-alive and change
// notifications) ride the same class as the I/O, so a host that lists
// nvme-tcp marks both ports.
const NVMeTCPDiscoveryPort = 8009
