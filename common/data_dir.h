#pragma once
// Where warpreg's data files are: presets, technology tables, benchmark profiles and
// table, experiments and scripts. They keep their source-tree paths under one root
// (platforms/presets, power/tech, stimuli/profiles, stimuli/benchmarks, experiments,
// scripts): the source tree for a build tree, PREFIX/share/warpreg for an installation,
// so an installed program needs no source tree (docs/library.md).
#include <string>
#include <string_view>

namespace warpreg {

/// The root, first found of: $WARPREG_DATA_DIR; the share/warpreg folder of the
/// installation the running program or warpreg shared library was loaded from; the source
/// tree, when that program or library is in the build tree; else the configured
/// installation's share/warpreg (a program linking the static libraries elsewhere sets
/// WARPREG_DATA_DIR when it was installed under another prefix).
std::string data_dir();
/// `relative` (e.g. "platforms/presets") under data_dir().
std::string data_path(std::string_view relative);

}  // namespace warpreg
