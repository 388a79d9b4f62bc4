locals {
  # The guide keeps the standard MTU: jumbo frames "may be used with RoCE,
  # [but] it does increase the latency and is not necessary" (Demartek RoCE
  # Deployment Guide, "Deploying RoCE on a Network Switch").
  host_mtu = 1500
}

# HPE 3PAR StoreServ File Controller v3: two ProLiant XL190r Gen9 nodes on
# Windows Storage Server 2012 R2, each with an HPE 640FLR-SFP28 adapter
# (Mellanox ConnectX-4 Lx, 2 x 25GbE) serving SMB Direct.
dynamic "host" {
  for_each = { "fc-node1" = 11, "fc-node2" = 21 }
  labels   = [host.key]
  content {
    os         = "windows"
    os_version = "2012r2"
    # The two nodes are a failover cluster: its heartbeats (New-NetQosPolicy
    # -Cluster) ride the lossy class "cluster" on priority 7 (fabric.hcl).
    cluster_class = "cluster"

    nic "port1" {
      model        = "ConnectX-4 Lx"
      interface    = "SLOT 4 Port 1"
      speed        = "25G"
      mtu          = local.host_mtu
      vlan         = 2
      addresses    = [format("192.168.2.%d/24", host.value)]
      applications = ["smb-direct"]
      trust        = "pcp"
    }

    nic "port2" {
      model        = "ConnectX-4 Lx"
      interface    = "SLOT 4 Port 2"
      speed        = "25G"
      mtu          = local.host_mtu
      vlan         = 2
      addresses    = [format("192.168.2.%d/24", host.value + 1)]
      applications = ["smb-direct"]
      trust        = "pcp"
    }
  }
}

# The SMB client: Windows Server 2012 R2 with a ConnectX-4 100GbE adapter.
host "win-client" {
  os         = "windows"
  os_version = "2012r2"

  nic "roce0" {
    model        = "ConnectX-4"
    interface    = "Ethernet 4"
    speed        = "100G"
    mtu          = local.host_mtu
    vlan         = 2
    addresses    = ["192.168.2.31/24"]
    applications = ["smb-direct"]
    # Classified by PCP (VLAN 2 carries priority 3): see switch.hcl.
    trust = "pcp"
  }
}

# iSER target: RHEL 7.2 with a ConnectX-4 100GbE adapter and MLNX_OFED 3.3;
# the guide's VLAN interface is p9p1.2 (Demartek RoCE Deployment Guide,
# "Linux: Deploying iSER over RoCE", step 5, "Set the egress priority
# mappings").
host "iser-target" {
  os         = "linux"
  os_version = "rhel7"

  nic "roce0" {
    model        = "ConnectX-4"
    driver       = "mlnx_ofed"
    interface    = "p9p1"
    speed        = "100G"
    mtu          = local.host_mtu
    vlan         = 2
    addresses    = ["192.168.2.41/24"]
    applications = ["iser"]
  }
}

# iSER initiator: RHEL 7.2 with a QLogic FastLinQ QL45212 (qede/qedr,
# inbox OFED). Its RoCE priority is chosen in UEFI HII (Demartek RoCE
# Deployment Guide, "Linux: Deploying iSER over RoCE", QLogic, steps 3-6);
# fabricc warns about that rather than pretend to set it.
host "iser-initiator" {
  os         = "linux"
  os_version = "rhel7"

  nic "roce0" {
    model        = "QL45212"
    interface    = "p4p1"
    speed        = "25G"
    mtu          = local.host_mtu
    vlan         = 2
    addresses    = ["192.168.2.51/24"]
    applications = ["iser"]
  }
}
