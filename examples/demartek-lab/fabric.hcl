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
# CNP DSCP 48 -> priority 6 strict, everything else lossy in class 0,
# ETS 50/50. Every value is written out in model.json.
qos {
  profile = "nvidia-roce"
}

vlan "roce" {
  id = 2
}
