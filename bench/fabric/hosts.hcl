# Hosts: mostly Linux (ConnectX-6 Dx with MLNX_OFED on every fourth,
# ConnectX-5 with the inbox driver otherwise), some Windows and FreeBSD;
# 25G NICs, untagged in the rack VLAN, one /24 per leaf and NIC.
dynamic "host" {
  for_each = local.hosts
  labels   = [host.key]
  content {
    os = host.value.os

    dynamic "nic" {
      for_each = range(host.value.nics)
      labels   = [format("roce%d", nic.value)]
      content {
        model = host.value.h % 4 == 0 ? "ConnectX-6 Dx" : "ConnectX-5"
        interface = (host.value.os == "windows" ? format("SLOT 2 Port %d", nic.value + 1)
          : host.value.os == "freebsd" ? format("mce%d", nic.value)
        : format("ens1f%dnp%d", nic.value, nic.value))
        driver = host.value.os == "linux" ? (host.value.h % 4 == 0 ? "mlnx_ofed" : "inbox") : null
        speed  = "25G"
        mtu    = 9000
        addresses = [format("10.%d.%d.%d/24", nic.value * 16 + floor(host.value.leafi / 256),
        host.value.leafi % 256, 10 + host.value.h)]
      }
    }
  }
}
