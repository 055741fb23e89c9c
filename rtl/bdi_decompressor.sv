// BDI decompressor of Warped-Compression (seed 001 §4, §5; docs/vectors.md#bdi).
//
// The image read from the banks and its range indicator in, the 128-byte warp register
// out: lane 0 is the base, lane i the base plus the sign-extended delta i (modulo 2^32).
// An image presented in cycle t is on the outputs in cycle t + 1; one per cycle. Range
// indicator codes: 0 uncompressed, 1 <4,0>, 2 <4,1>, 3 <4,2>. Image bytes beyond the
// encoding's length are ignored.
module bdi_decompressor (
    input  logic          clk,
    input  logic          rst_n,
    input  logic          in_valid,
    input  logic [   1:0] in_indicator,
    input  logic [1023:0] in_image,      // image byte b in bits [8b+7:8b]
    output logic          out_valid,
    output logic [1023:0] out_data       // lane i in bits [32i+31:32i]
);
  localparam int Lanes = 32;

  logic [1023:0] data;
  logic [31:0] delta8, delta16;  // delta i sign-extended from 1 and from 2 bytes
  always_comb begin
    data = in_image;
    for (int i = 1; i < Lanes; i++) begin
      delta8  = {{24{in_image[32+8*i-1]}}, in_image[32+8*(i-1)+:8]};
      delta16 = {{16{in_image[32+16*i-1]}}, in_image[32+16*(i-1)+:16]};
      unique case (in_indicator)
        2'd1: data[32*i+:32] = in_image[31:0];
        2'd2: data[32*i+:32] = in_image[31:0] + delta8;
        2'd3: data[32*i+:32] = in_image[31:0] + delta16;
        default: ;  // uncompressed: the image is the register
      endcase
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) out_valid <= 1'b0;
    else out_valid <= in_valid;
  end

  always_ff @(posedge clk) out_data <= data;
endmodule
