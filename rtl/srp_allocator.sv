// RegMutex shared-register-pool allocator and mapping unit (seed 003 §III-B, §III-C,
// Figures 4-6; docs/vectors.md#regmutex).
//
// Issue stage: one acquire or release per cycle. State: the warp-status bitmask, the SRP
// bitmask and the lookup table (LUT) of each warp's section. An acquire takes the first
// zero bit of the SRP bitmask (find first zero); a warp that holds a section acquires
// with no effect; none free: the warp stalls (and retries later). A release clears the
// warp's section; a warp that holds none releases with no effect. Paired mode
// (§III-C): warps 2p and 2p+1 share unit p's extended set; bit p of the same bitmask
// says it is taken, and no LUT is needed.
//
// Kernel start (`start`): the launch configuration is sampled, every status bit cleared
// and the SRP bits of sections >= cfg_sections set (shared mode; they stay set).
//
// Timing: a request (or start) presented in cycle t is answered on rsp_* in cycle t + 1,
// when srp_bitmask and warp_status also show its effect; one request per cycle. After a
// cycle without request (or a start) rsp_outcome is NONE and rsp_section, rsp_holds 0.
//
// Operand collector: the mapping unit is combinational (the compare, multiply and add
// replace Y = X + B in the stage that computes it), from the state of the current cycle:
//   shared: X < |B_s|: W x |B_s| + X;  else SRP_offset + LUT(W) x |E_s| + (X - |B_s|)
//   paired: U = (W / 2) x (2|B_s| + |E_s|); X < |B_s|: U + (W mod 2) x |B_s| + X;
//           else U + 2|B_s| + (X - |B_s|)
// An extended register of a warp that holds no set is a fault: map_fault, map_phys 0.
module srp_allocator #(
    parameter int NW         = 48,  // N_w: warp slots and at most as many SRP sections
    parameter int INDEX_BITS = 8,   // architected register index X, |B_s|, |E_s|
    parameter int PHYS_BITS  = 10,  // physical warp register
    localparam int WarpBits = $clog2(NW),
    localparam int SectionCountBits = $clog2(NW + 1)
) (
    input logic clk,
    input logic rst_n,

    input logic                        start,
    input logic                        cfg_paired,
    input logic [SectionCountBits-1:0] cfg_sections,
    input logic [      INDEX_BITS-1:0] cfg_bs,
    input logic [      INDEX_BITS-1:0] cfg_es,
    input logic [       PHYS_BITS-1:0] cfg_srp_offset,

    input  logic                req_valid,
    input  logic                req_release,  // 0 acquire, 1 release
    input  logic [WarpBits-1:0] req_warp,
    output logic [         2:0] rsp_outcome,
    output logic [WarpBits-1:0] rsp_section,  // taken, freed or held; 0 otherwise
    output logic                rsp_holds,    // the warp holds a section after the request
    output logic [      NW-1:0] srp_bitmask,
    output logic [      NW-1:0] warp_status,

    input  logic [  WarpBits-1:0] map_warp,
    input  logic [INDEX_BITS-1:0] map_x,
    output logic                  map_extended,
    output logic                  map_fault,
    output logic [ PHYS_BITS-1:0] map_phys
);
  localparam logic [2:0] OutcomeNone = 3'd0;
  localparam logic [2:0] OutcomeAcquired = 3'd1;
  localparam logic [2:0] OutcomeReleased = 3'd2;
  localparam logic [2:0] OutcomeNoEffect = 3'd3;
  localparam logic [2:0] OutcomeStall = 3'd4;

  // Launch configuration, held from `start` on.
  logic                  paired_q;
  logic [INDEX_BITS-1:0] bs_q, es_q;
  logic [ PHYS_BITS-1:0] srp_offset_q;

  logic [NW-1:0] status_q, srp_q;
  logic [WarpBits-1:0] lut_q[NW];

  // Find first zero on the SRP bitmask.
  logic ffz_found;
  logic [WarpBits-1:0] ffz_index;
  always_comb begin
    ffz_found = 1'b0;
    ffz_index = '0;
    for (int i = NW - 1; i >= 0; i--) begin
      if (!srp_q[i]) begin
        ffz_found = 1'b1;
        ffz_index = WarpBits'(i);
      end
    end
  end

  // The request.
  logic held, unit_taken, take, give;
  logic [WarpBits-1:0] unit, section, taken_section;
  logic [2:0] outcome;
  always_comb begin
    held          = status_q[req_warp];
    unit          = req_warp >> 1;
    unit_taken    = srp_q[unit];
    section       = paired_q ? unit : lut_q[req_warp];
    taken_section = paired_q ? unit : ffz_index;
    take          = 1'b0;
    give          = 1'b0;
    outcome       = OutcomeNone;
    if (req_valid && !req_release) begin
      if (held) begin
        outcome = OutcomeNoEffect;
      end else if (paired_q ? unit_taken : !ffz_found) begin
        outcome = OutcomeStall;
      end else begin
        outcome = OutcomeAcquired;
        take    = 1'b1;
        section = taken_section;
      end
    end else if (req_valid) begin
      outcome = held ? OutcomeReleased : OutcomeNoEffect;
      give    = held;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      status_q    <= '0;
      srp_q       <= '1;
      paired_q    <= 1'b0;
      rsp_outcome <= OutcomeNone;
      rsp_section <= '0;
      rsp_holds   <= 1'b0;
    end else if (start) begin
      status_q    <= '0;
      paired_q    <= cfg_paired;
      rsp_outcome <= OutcomeNone;
      rsp_section <= '0;
      rsp_holds   <= 1'b0;
      for (int i = 0; i < NW; i++) srp_q[i] <= !cfg_paired && SectionCountBits'(i) >= cfg_sections;
    end else begin
      rsp_outcome <= outcome;
      rsp_section <= req_valid && (take || held) ? section : '0;
      rsp_holds   <= req_valid && (take || (held && !give));
      if (take) begin
        status_q[req_warp] <= 1'b1;
        srp_q[section]     <= 1'b1;
      end
      if (give) begin
        status_q[req_warp] <= 1'b0;
        srp_q[section]     <= 1'b0;
      end
    end
  end

  // The configuration and the LUT need no reset: nothing reads them before a start, and
  // a LUT entry is read only while its warp's status bit says it was written.
  always_ff @(posedge clk) begin
    if (start) begin
      bs_q         <= cfg_bs;
      es_q         <= cfg_es;
      srp_offset_q <= cfg_srp_offset;
    end else if (take && !paired_q) begin
      lut_q[req_warp] <= section;
    end
  end

  assign srp_bitmask = srp_q;
  assign warp_status = status_q;

  // The mapping unit.
  logic [PHYS_BITS-1:0] x, bs, es, pair_base;
  logic map_holds;
  always_comb begin
    x            = PHYS_BITS'(map_x);
    bs           = PHYS_BITS'(bs_q);
    es           = PHYS_BITS'(es_q);
    map_holds    = status_q[map_warp];
    map_extended = map_x >= bs_q;
    map_fault    = map_extended && !map_holds;
    pair_base    = PHYS_BITS'(map_warp[WarpBits-1:1]) * (2 * bs + es);
    if (map_fault) map_phys = '0;
    else if (!paired_q && !map_extended) map_phys = PHYS_BITS'(map_warp) * bs + x;
    else if (!paired_q) map_phys = srp_offset_q + PHYS_BITS'(lut_q[map_warp]) * es + (x - bs);
    else if (!map_extended) map_phys = pair_base + (map_warp[0] ? bs : '0) + x;
    else map_phys = pair_base + bs + x;
  end
endmodule
