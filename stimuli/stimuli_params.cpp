// Parameters of the built-in synthetic workload (stimuli/driver/synthetic_workload.h)
// and of the kernel driver (stimuli/driver/kernel_workload.h, profile.h, open_workload.cpp).
#include "common/params.h"

namespace warpreg {

namespace {
constexpr const char* kProfile = "warpreg synthetic profile";

// Most defaults here are the synthetic profile's own; the others name their source.
ParamSpec profile_int(const char* name, int64_t def, double min, double max, const char* unit,
                      const char* description, const char* source = kProfile) {
  return int_param(name, def, min, max, unit, description, source);
}
ParamSpec profile_real(const char* name, const char* def, double min, double max, const char* unit,
                       const char* description, const char* source = kProfile) {
  return real_param(name, def, min, max, unit, description, source);
}
ParamSpec profile_choice(const char* name, const char* def, std::vector<std::string> choices,
                         const char* description, const char* source = kProfile) {
  return choice_param(name, def, std::move(choices), description, source);
}

}  // namespace

static void declare_stimuli_params(std::vector<ParamSpec>& out) {
  // Launch shape.
  out.push_back(profile_int("synth.ctas", 120, 1, 1 << 24, "CTAs",
                            "CTAs in the synthetic grid; the default runs a Fermi SM through "
                            "many waves (5 resident CTAs of 256 threads x 21 registers)."));
  out.push_back(profile_int("synth.threads_per_cta", 256, 1, 1024, "threads",
                            "Threads per synthetic CTA (1024 is CUDA's limit)."));
  out.push_back(profile_int("synth.regs_per_thread", 21, 1, 255, "registers",
                            "Architected registers per thread, R0..R(N-1). Keep it at most 63 "
                            "for RFV's 6-bit register ids.",
                            "seed 003 §III-A: above 20 registers per thread a Fermi SM's occupancy "
                            "is register-limited, so 21 makes registers the limit; seed 000 "
                            "(compiler support, pbr format): Fermi threads use up to 63 registers "
                            "named by 6-bit ids"));
  out.push_back(profile_int("synth.shared_mem_per_cta", 0, 0, 1 << 20, "bytes",
                            "Shared memory per synthetic CTA (limits CTAs per SM only)."));
  out.push_back(profile_int("synth.insts_per_warp", 400, 1, 10000000, "instructions",
                            "Dynamic instructions per warp, the final exit included; generated "
                            "as the warp runs, so memory does not grow with it (a source finds "
                            "its producer at most 65536 instructions back)."));
  // Instruction mix; whatever the four fractions leave is ALU.
  out.push_back(profile_real("synth.frac_sfu", "0.05", 0, 1, "fraction",
                             "Share of non-barrier instructions that are SFU operations."));
  out.push_back(profile_real("synth.frac_load", "0.15", 0, 1, "fraction",
                             "Share of non-barrier instructions that are loads."));
  out.push_back(profile_real("synth.frac_store", "0.05", 0, 1, "fraction",
                             "Share of non-barrier instructions that are stores."));
  out.push_back(profile_real("synth.frac_branch", "0.05", 0, 1, "fraction",
                             "Share of non-barrier instructions that are branches. The four "
                             "synth.frac_* must sum to at most 1; the rest is ALU."));
  // Control flow and dependences.
  out.push_back(profile_real("synth.divergence", "0.1", 0, 1, "fraction",
                             "Long-run fraction of instructions that run with a partial active "
                             "mask (a lane prefix or a random lane subset).",
                             "seed 001 §3 Fig. 3: 79 % of warp instructions are non-divergent; "
                             "0.1 is a milder default"));
  out.push_back(profile_real("synth.divergent_run", "8", 1, 1e6, "instructions",
                             "Mean length of a run of instructions sharing one partial mask "
                             "(divergence ends at barriers and at exit)."));
  out.push_back(profile_real("synth.dep_distance", "4", 1, 1e6, "instructions",
                             "Mean distance back to the producer of a source operand "
                             "(geometric); small values mean little instruction-level "
                             "parallelism."));
  out.push_back(profile_int("synth.barrier_every", 0, 0, 10000000, "instructions",
                            "Every N-th instruction of every warp is a CTA barrier, so all warps "
                            "of a CTA meet at the same points; 0: no barriers."));
  // Register values.
  out.push_back(profile_choice("synth.value_model", "similar", {"similar", "uniform", "mixed"},
                               "Lane values of written registers: similar = per static "
                               "instruction one of same-value / thread-index affine / "
                               "successive-lane delta within 128 or 32K / random, in the "
                               "proportions of seed 001 (79 % non-random); uniform = every lane "
                               "random; mixed = each static instruction similar or uniform "
                               "with equal odds.",
                               "seed 001 §3 Fig. 2 (value similarity of register writes)"));
}

static void declare_kernel_driver_params(std::vector<ParamSpec>& out) {
  // Kernel execution (KernelWorkload: profiles and nvdisasm .dot kernels).
  constexpr const char* kDriver = "warpreg kernel driver (docs/stimuli-driver.md)";
  out.push_back(profile_int("kernel.max_insts_per_warp", 100000, 1, 1 << 30, "instructions",
                            "Cap on the dynamic instructions of one warp, the final exit "
                            "included; a warp that reaches it ends there with an exit and the "
                            "run ends with status capped_warps unless kernel.allow_capped. "
                            "Memory does not grow with it (streams are generated as they run).",
                            kDriver));
  out.push_back(bool_param("kernel.allow_capped", false,
                           "Accept warps cut short by kernel.max_insts_per_warp: the run ends "
                           "\"ok\" and reports them in stimulus.capped_warps.",
                           kDriver));
  out.push_back(profile_int("kernel.recompile_for_registers", 0, 0, 1 << 22, "32-bit registers",
                            "Recompile the kernel as a compiler targeting a smaller register file "
                            "would: keep the warps resident with this many registers (e.g. 32768, "
                            "128 KB) on the SM's sm.registers by limiting registers per thread; "
                            "registers above the limit (4 of the kept ones are scratch) live in "
                            "local memory, each read preceded by a load and each write followed "
                            "by a store. 0: the kernel as given.",
                            "seed 000 §8.1 and Fig. 11a: the compiler-spill alternative to "
                            "GPU-shrink at 64 KB"));
  {
    ParamSpec mix;
    mix.name = "kernel.address_mix";
    mix.type = ParamType::Text;
    mix.default_value = "benchmark";
    mix.description =
        "Address models of a profile's or a cuobjdump/.dot kernel's loads and stores on "
        "mem.model=memory_system: 'benchmark' the mix of the benchmark row the workload "
        "belongs to (stimuli/benchmarks/address_mixes.json; none for other kernels), 'none' "
        "the SM's default models, or a mix's JSON file (docs/memory.md, 'Address models').";
    mix.source = "warpreg (issue 16)";
    out.push_back(mix);
  }
  out.push_back(profile_int("profile.ctas", 0, 0, 1 << 24, "CTAs",
                            "Grid size of a profile workload; 0 keeps the profile's own "
                            "(use a small value for quick runs).",
                            kDriver));
  out.push_back(profile_real("profile.trip_scale", "1", 0, 1e6, "factor",
                             "Scales every loop trip count of a profile (at least one "
                             "iteration remains).",
                             kDriver));
  out.push_back(profile_int("dot.ctas", 30, 1, 1 << 24, "CTAs",
                            "CTAs launched for an nvdisasm .dot kernel (a .dot has no launch).",
                            kDriver));
  out.push_back(profile_int("dot.threads_per_cta", 256, 1, 1024, "threads",
                            "Threads per CTA for an nvdisasm .dot kernel.", kDriver));
  out.push_back(profile_int("cuobjdump.ctas", 30, 1, 1 << 24, "CTAs",
                            "CTAs launched for a kernel of a cuobjdump listing (a listing has no "
                            "launch; real:ID workloads take the paper's).",
                            kDriver));
  out.push_back(profile_int("cuobjdump.threads_per_cta", 256, 1, 1024, "threads",
                            "Threads per CTA for a kernel of a cuobjdump listing.", kDriver));
  out.push_back(profile_int("dot.trip_count", 4, 0, 1000000, "back edges",
                            "Times each lane takes a loop's back edge per entry into the loop, "
                            "for every loop of a .dot or cuobjdump kernel.",
                            kDriver));
  out.push_back(profile_real(
      "dot.trip_spread", "0", 0, 100, "fraction of the trip count",
      "Per-lane spread of a .dot or cuobjdump kernel's trip counts: on each entry a lane "
      "takes the back edge dot.trip_count + u times, u uniform in "
      "[0, round(dot.trip_count x spread)], so lanes leave loops apart.",
      kDriver));
  out.push_back(profile_real("dot.divergence", "0.2", 0, 1, "probability",
                             "Probability that a data-dependent branch or predicate of a .dot or "
                             "cuobjdump kernel splits the active lanes.",
                             kDriver));
  out.push_back(profile_real("dot.taken", "0.5", 0, 1, "probability",
                             "Probability that a data-dependent branch of a .dot or cuobjdump "
                             "kernel that does not split is taken.",
                             kDriver));
  out.push_back(profile_real(
      "dot.early_exit", "0.05", 0, 1, "probability",
      "Probability that a guarded EXIT (or sm_1x RET) of a .dot or cuobjdump kernel retires lanes "
      "(a suffix of the warp, as a thread-index bounds check does).",
      kDriver));
}

// open_workload.cpp refers to it, so that every program that opens a workload links these.
extern const ParamRegistrar kStimuliParams;
const ParamRegistrar kStimuliParams([](std::vector<ParamSpec>& out) {
  declare_stimuli_params(out);
  declare_kernel_driver_params(out);
});

}  // namespace warpreg
