kernel-1.traceg
MemcpyHtoD,0xzz,12
