// Replays the $readmemh golden vectors of `warpreg vectors regmutex --format memh`
// (docs/vectors.md) on the SRP allocator, with the packing the file's header comment
// and docs/vectors.md give: one 168-bit word per step, the fields of step_t from the most
// significant bit down. It checks what srp_replay.cpp checks from the JSON Lines file,
// without the idle cycles: record k presented in cycle k, its outputs checked in k + 1.
// The clock and the plusargs +vectors=FILE +count=N come from srp_memh_main.cpp.
module srp_memh_tb #(
    parameter int MaxSteps = 1 << 17
) (
    input  logic        clk,
    input  logic        rst_n,
    output logic        done,
    output logic [31:0] mismatches
);
  typedef struct packed {
    logic        zero;  // padding to whole hex digits
    logic [1:0]  op;    // 0 start, 1 acquire, 2 release
    logic [5:0]  warp;
    logic [7:0]  x;
    logic        paired;
    logic [5:0]  sections;
    logic [7:0]  bs;
    logic [7:0]  es;
    logic [9:0]  srp_offset;
    logic [2:0]  outcome;
    logic        holds;
    logic [5:0]  section;
    logic [47:0] srp_bitmask;
    logic [47:0] warp_status;
    logic        extended;
    logic        fault;
    logic [9:0]  phys;
  } step_t;

  step_t steps[MaxSteps];
  int count;
  initial begin
    string file;
    if (!$value$plusargs("vectors=%s", file)) $fatal(1, "srp_memh_tb: no +vectors=FILE");
    if (!$value$plusargs("count=%d", count)) $fatal(1, "srp_memh_tb: no +count=N");
    if (count < 1 || count > MaxSteps) $fatal(1, "srp_memh_tb: +count=%0d out of range", count);
    $readmemh(file, steps, 0, count - 1);
  end

  logic [2:0] rsp_outcome;
  logic [5:0] rsp_section;
  logic rsp_holds, map_extended, map_fault;
  logic [47:0] srp_bitmask, warp_status;
  logic [9:0] map_phys;
  int k;  // the record presented this cycle
  /* verilator lint_off UNUSEDSIGNAL */  // each uses the fields of its side
  step_t now, last;
  /* verilator lint_on UNUSEDSIGNAL */
  assign now  = steps[k < count ? k : 0];
  assign last = steps[k > 0 ? k - 1 : 0];

  srp_allocator dut (
      .clk,
      .rst_n,
      .start         (rst_n && k < count && now.op == 2'd0),
      .cfg_paired    (now.paired),
      .cfg_sections  (now.sections),
      .cfg_bs        (now.bs),
      .cfg_es        (now.es),
      .cfg_srp_offset(now.srp_offset),
      .req_valid     (rst_n && k < count && now.op != 2'd0),
      .req_release   (now.op == 2'd2),
      .req_warp      (now.warp),
      .rsp_outcome,
      .rsp_section,
      .rsp_holds,
      .srp_bitmask,
      .warp_status,
      .map_warp      (last.warp),
      .map_x         (last.x),
      .map_extended,
      .map_fault,
      .map_phys
  );

  function automatic int differs(string what, int step, logic [47:0] got, logic [47:0] want);
    if (got == want) return 0;
    if (mismatches < 10)
      $display("srp memh: step %0d: %s is 0x%0h, the model gives 0x%0h", step, what, got, want);
    return 1;
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      k <= 0;
      done <= 1'b0;
      mismatches <= 0;
    end else if (!done) begin
      if (k > 0)
        mismatches <= mismatches
          + differs("rsp_outcome", k - 1, 48'(rsp_outcome), 48'(last.outcome))
          + differs("rsp_section", k - 1, 48'(rsp_section), 48'(last.section))
          + differs("rsp_holds", k - 1, 48'(rsp_holds), 48'(last.holds))
          + differs("srp_bitmask", k - 1, srp_bitmask, last.srp_bitmask)
          + differs("warp_status", k - 1, warp_status, last.warp_status)
          + differs("map_extended", k - 1, 48'(map_extended), 48'(last.extended))
          + differs("map_fault", k - 1, 48'(map_fault), 48'(last.fault))
          + differs("map_phys", k - 1, 48'(map_phys), 48'(last.phys))
          + differs("padding", k - 1, 48'(last.zero), 48'(0));
      if (k == count) done <= 1'b1;
      k <= k + 1;
    end
  end
endmodule
