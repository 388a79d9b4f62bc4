# Mistake: a description saved in Latin-1 by an old editor: its "e with
# acute" is the byte 0xE9, which is not UTF-8.
fabric "bad" {
  description = "Café pod"
}

vlan "rdma" {
  id = 100
}
