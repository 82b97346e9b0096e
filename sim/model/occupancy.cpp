#include "model/occupancy.h"

#include <algorithm>
#include <climits>
#include <initializer_list>

#include "common/error.h"

namespace gms {

Occupancy compute_occupancy(const GpuConfig& gpu, const LaunchShape& shape) {
  Occupancy o;
  const auto& sm = gpu.sm;
  if (shape.warps_per_cta > sm.max_warps)
    throw ConfigError("kernel cannot fit on an SM: " + std::to_string(shape.warps_per_cta) +
                      " warps per CTA, the GPU holds " + std::to_string(sm.max_warps) + " per SM");
  o.registers_per_thread = std::min(shape.registers_per_thread, sm.max_registers_per_thread);
  o.spilled_registers = std::max(0, shape.registers_per_thread - sm.max_registers_per_thread);
  std::int64_t regs_per_warp = static_cast<std::int64_t>(o.registers_per_thread) * sm.warp_size;
  regs_per_warp = (regs_per_warp + sm.register_alloc_unit - 1) / sm.register_alloc_unit * sm.register_alloc_unit;
  std::int64_t regs_per_cta = regs_per_warp * shape.warps_per_cta;
  std::int64_t smem = shape.shared_mem_per_cta;
  if (smem > sm.shared_mem_per_cta)
    throw ConfigError("kernel cannot fit on an SM: a CTA needs " + std::to_string(smem) +
                      " B of shared memory, the GPU allows " + std::to_string(sm.shared_mem_per_cta) +
                      " B per CTA (reduce stages or the tile)");
  if (regs_per_cta > sm.registers)
    throw ConfigError("kernel cannot fit on an SM: a CTA needs " + std::to_string(regs_per_cta) +
                      " registers, the SM has " + std::to_string(sm.registers));
  o.by_warps = sm.max_warps / shape.warps_per_cta;
  o.by_ctas = sm.max_ctas;
  o.by_registers = regs_per_cta > 0 ? static_cast<int>(sm.registers / regs_per_cta) : INT_MAX;
  std::int64_t smem_alloc = smem + sm.shared_mem_reserved_per_cta;
  o.by_shared_mem = smem_alloc > 0 ? static_cast<int>(sm.shared_mem / smem_alloc) : INT_MAX;
  o.ctas_per_sm = std::min({o.by_warps, o.by_ctas, o.by_registers, o.by_shared_mem});
  if (o.ctas_per_sm == o.by_shared_mem) o.limiter = "shared_mem";
  if (o.ctas_per_sm == o.by_registers) o.limiter = "registers";
  if (o.ctas_per_sm == o.by_ctas) o.limiter = "ctas";
  if (o.ctas_per_sm == o.by_warps) o.limiter = "warps";
  if (o.ctas_per_sm < 1)
    throw ConfigError("kernel cannot fit on an SM: one CTA needs " + std::to_string(smem_alloc) +
                      " B of shared memory (incl. reserve), the SM has " + std::to_string(sm.shared_mem));
  o.l1_bytes = l1_bytes_for(gpu, shape, o);
  return o;
}

std::int64_t l1_bytes_for(const GpuConfig& gpu, const LaunchShape& shape, const Occupancy& occ) {
  if (gpu.l1.unified_bytes <= 0) return gpu.l1.size;
  std::string why;
  const auto carveouts = parse_carveouts(gpu.l1.carveouts, &why);
  SIM_ASSERT(carveouts && !carveouts->empty(), "l1.carveouts '" << gpu.l1.carveouts << "' passed validation: " << why);
  const std::int64_t per_cta = shape.shared_mem_per_cta + gpu.sm.shared_mem_reserved_per_cta;
  if (shape.shared_carveout >= 0) {
    if (std::find(carveouts->begin(), carveouts->end(), shape.shared_carveout) == carveouts->end())
      throw ConfigError("workload shared_carveout " + std::to_string(shape.shared_carveout) + " B is not one of the GPU's "
                        "l1.carveouts (" + gpu.l1.carveouts + ")");
    if (shape.shared_carveout < per_cta)
      throw ConfigError("workload shared_carveout " + std::to_string(shape.shared_carveout) + " B cannot hold one CTA's " +
                        std::to_string(per_cta) + " B of shared memory (reserve included)");
    return gpu.l1.unified_bytes - shape.shared_carveout;
  }
  // The CTAs the other limits let run, times the driver's headroom, as far as the largest carve-out
  // holds them: a 64 KiB CTA runs 3 to an SM, so 196 KiB holds them as well as 228 would.
  const int others = std::min({occ.by_warps, occ.by_ctas, occ.by_registers});
  const std::int64_t ctas = std::min<std::int64_t>({static_cast<std::int64_t>(others) * gpu.l1.carveout_headroom,
                                                    gpu.sm.max_ctas, occ.by_shared_mem});
  const std::int64_t need = ctas * per_cta;
  std::int64_t carveout = carveouts->back();
  for (std::int64_t c : *carveouts)
    if (c >= need) {
      carveout = c;
      break;
    }
  return gpu.l1.unified_bytes - carveout;
}

}  // namespace gms
