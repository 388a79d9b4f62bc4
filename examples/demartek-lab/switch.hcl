# Mellanox SN2410: 48 x 25GbE and 8 x 100GbE (Demartek RoCE Deployment
# Guide, "Products Tested in this Guide", Mellanox).
# The guide configures buffers with the ingress-buffer / egress-buffer
# commands of MLNX-OS releases before 3.6.5000, so the declared release
# is one of those; fabricc then renders the same "advanced" buffer form.
switch "sn2410" {
  platform   = "onyx"
  model      = "SN2410"
  os_version = "3.6.4006"

  # Server-facing 25GbE ports, trunking VLAN 2 as in the guide's step 8.
  port "1/1-1/8" {
    speed = "25G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [2]
  }

  # 100GbE ports for the Windows client and the ConnectX-4 iSER target.
  port "1/49-1/52" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [2]
  }

  # The Windows hosts (fc-node1, fc-node2 on 1/1-1/4, win-client on 1/49)
  # are classified by their 802.1p priority, as in the guide, which sets
  # no DSCP: their WinOF-2 driver documents no setting for the DSCP of
  # RoCE packets (warning windows-roce-dscp-not-settable otherwise).
  override "1/1-1/4" {
    trust = "pcp"
  }

  override "1/49" {
    description = "win-client 100GbE ConnectX-4"
    trust       = "pcp"
  }
}
