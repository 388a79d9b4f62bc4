# GPU servers carry ConnectX-6 Dx with MLNX_OFED (mlnx_qos); storage
# servers ConnectX-5 with the distribution's inbox driver (iproute2 dcb)
# serving NVMe-oF.
dynamic "host" {
  for_each = local.hosts
  labels   = [host.key]
  content {
    os         = "linux"
    os_version = "ubuntu22.04"

    nic "roce0" {
      model        = host.value.gpu ? "ConnectX-6 Dx" : "ConnectX-5"
      driver       = host.value.gpu ? "mlnx_ofed" : "inbox"
      interface    = host.value.gpu ? "ens1f0np0" : "ens2f0np0"
      speed        = "100G"
      mtu          = 9000
      addresses    = [host.value.address]
      applications = host.value.gpu ? [] : ["nvme-of"]
    }
  }
}
