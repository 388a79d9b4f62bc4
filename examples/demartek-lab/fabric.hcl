# The Demartek RoCE Deployment Guide lab: one Mellanox SN2410
# switch, two HPE 3PAR StoreServ File Controller nodes and a Windows client
# running SMB Direct, and an iSER target and initiator on RHEL 7.
#
# The guide puts RoCE on VLAN 2 and priority 3 "because we are using a
# Mellanox switch. Any other switch would most likely have Priority 3 set
# to FCoE" (Demartek RoCE Deployment Guide, "Deploying RoCE on a Network
# Switch").
fabric "demartek-lab" {
  description = "Demartek RoCE Deployment Guide lab: SN2410, SMB Direct and iSER over RoCE"
  # The guide configures whole port ranges; 1/6-1/8, 1/51 and 1/52 are
  # spare and uncabled, so their 5 m headroom is a placeholder.
  accept "pfc-port-without-a-cable-length" { reason = "spare ports of the guide's port ranges, uncabled in the lab" }
}

# The NVIDIA RoCE profile: RoCE DSCP 26 -> priority 3 lossless with ECN,
# CNP DSCP 48 -> priority 6 strict, everything else lossy in class 0.
# Every value is written out in model.json.
qos {
  profile = "nvidia-roce"

  # The two file-controller nodes are a Windows failover cluster, whose
  # heartbeats get a lossy class of their own on priority 7, as Microsoft's
  # storage cluster guidance has it: "PFC enabled: No", "Recommended
  # traffic priority: Priority 7", 1 % on 25 GbE or higher, 2 % on 10 GbE
  # (Microsoft, "Host network requirements for Azure Stack HCI", RDMA
  # traffic considerations, Cluster traffic class). The nodes name it in
  # cluster_class (hosts.hcl); ETS roce 50 %, default 49 %, cluster 1 %.
  # DSCP 56-63 is the block Onyx's default map puts on priority 7.
  class "default" {
    bandwidth = 49
  }

  class "cluster" {
    priority  = 7
    dscp      = [56, 57, 58, 59, 60, 61, 62, 63]
    bandwidth = 1
  }
}

vlan "roce" {
  id = 2
}
