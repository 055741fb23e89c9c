kernel-404.traceg
