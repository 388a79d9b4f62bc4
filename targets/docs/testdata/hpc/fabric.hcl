# An HPC cluster: MPI and NVMe-oF on two ConnectX-6 Dx ports of cn001, MPI
# on cn002's ConnectX-5 on a PCP-trusting VLAN trunk (the documents' test
# fabric for UCX, service levels and application steps).
fabric "hpc" {
  description = "slurm cluster"
}

qos {
  profile = "nvidia-roce"
}

vlan "compute" {
  id = 200
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN2700"
  os_version = "5.9.2"

  port "swp1" {
    mode  = "access"
    speed = "100G"
    vlans = [200]
  }
  port "swp2" {
    mode  = "access"
    speed = "100G"
    vlans = [200]
  }
  port "swp3" {
    mode  = "trunk"
    speed = "100G"
    vlans = [200]
    trust = "pcp"
  }
}

host "cn001" {
  os         = "linux"
  os_version = "rocky9"

  nic "p0" {
    model        = "ConnectX-6 Dx"
    driver       = "inbox"
    interface    = "ens1f0np0"
    mtu          = 4200
    addresses    = ["10.10.0.1/24"]
    applications = ["mpi", "nvme-of"]
  }
  nic "p1" {
    model        = "ConnectX-6 Dx"
    driver       = "inbox"
    interface    = "ens1f1np1"
    mtu          = 4200
    addresses    = ["10.11.0.1/24"]
    applications = ["mpi"]
  }
}

host "cn002" {
  os         = "linux"
  os_version = "rhel8"

  nic "p0" {
    model        = "ConnectX-5"
    driver       = "mlnx_ofed"
    interface    = "ens2f0np0"
    vlan         = 200
    trust        = "pcp"
    addresses    = ["10.10.0.2/24"]
    applications = ["mpi"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "cn001:p0"
  length = 2
}
link {
  a      = "leaf1:swp2"
  b      = "cn001:p1"
  length = 2
}
link {
  a      = "leaf1:swp3"
  b      = "cn002:p0"
  length = 2
}
