// BDI compressor of Warped-Compression (seed 001 §5.1, Figure 7; docs/vectors.md#bdi).
//
// One 128-byte warp register in, its <4,0>, <4,1> or <4,2> image out, or the register
// as it is when no choice fits. Two pipeline stages, as the paper's two steps:
//   stage 1 subtracts the base (lane 0) from every lane, modulo 2^32;
//   stage 2 compares the deltas' sign extensions (all zero, fit 8 bits, fit 16 bits)
//           and packs the image.
// A register presented in cycle t (sampled at the end of it) is on the outputs in cycle
// t + 2; one register per cycle. The range indicator codes are those of the model:
// 0 uncompressed, 1 <4,0>, 2 <4,1>, 3 <4,2>.
module bdi_compressor (
    input  logic          clk,
    input  logic          rst_n,
    input  logic          in_valid,
    input  logic [1023:0] in_data,        // lane i in bits [32i+31:32i]
    output logic          out_valid,
    output logic [   1:0] out_indicator,
    output logic [   3:0] out_banks,      // 16-byte banks the image occupies: 8, 1, 3 or 5
    output logic [1023:0] out_image       // image byte b in bits [8b+7:8b], zero past it
);
  localparam int Lanes = 32;

  // Stage 1: the base and the 31 deltas.
  logic                   s1_valid;
  logic [1023:0]          s1_data;
  logic [Lanes-1:1][31:0] s1_delta;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) s1_valid <= 1'b0;
    else s1_valid <= in_valid;
  end

  always_ff @(posedge clk) begin
    s1_data <= in_data;
    for (int i = 1; i < Lanes; i++) s1_delta[i] <= in_data[32*i+:32] - in_data[31:0];
  end

  // Stage 2: the sign-extension comparators and the packing.
  logic all_zero, fits8, fits16;
  always_comb begin
    all_zero = 1'b1;
    fits8    = 1'b1;
    fits16   = 1'b1;
    for (int i = 1; i < Lanes; i++) begin
      if (s1_delta[i] != 32'd0) all_zero = 1'b0;
      if (s1_delta[i][31:7] != '0 && s1_delta[i][31:7] != '1) fits8 = 1'b0;
      if (s1_delta[i][31:15] != '0 && s1_delta[i][31:15] != '1) fits16 = 1'b0;
    end
  end

  logic [1023:0] image_4_0, image_4_1, image_4_2;
  always_comb begin
    image_4_0       = '0;
    image_4_1       = '0;
    image_4_2       = '0;
    image_4_0[31:0] = s1_data[31:0];
    image_4_1[31:0] = s1_data[31:0];
    image_4_2[31:0] = s1_data[31:0];
    for (int i = 1; i < Lanes; i++) begin
      image_4_1[32+8*(i-1)+:8]   = s1_delta[i][7:0];
      image_4_2[32+16*(i-1)+:16] = s1_delta[i][15:0];
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) out_valid <= 1'b0;
    else out_valid <= s1_valid;
  end

  always_ff @(posedge clk) begin
    if (all_zero) begin
      out_indicator <= 2'd1;
      out_banks     <= 4'd1;
      out_image     <= image_4_0;
    end else if (fits8) begin
      out_indicator <= 2'd2;
      out_banks     <= 4'd3;
      out_image     <= image_4_1;
    end else if (fits16) begin
      out_indicator <= 2'd3;
      out_banks     <= 4'd5;
      out_image     <= image_4_2;
    end else begin
      out_indicator <= 2'd0;
      out_banks     <= 4'd8;
      out_image     <= s1_data;
    end
  end
endmodule
