#pragma once
// Sectored, set-associative tag store shared by L1 and L2. It keeps, per line, which sectors are
// valid and dirty and, per sector, the tick at which its data arrives (so a hit on a line whose fill
// is still in flight waits for the fill, which is how merged misses behave).
#include <cstdint>
#include <string>
#include <vector>

#include "common/fast_mod.h"
#include "common/huge_pages.h"
#include "common/types.h"

namespace gms {

enum class Replacement { kLru, kFifo, kRandom };

// Insertion priority from eviction hints: kFirst lines are the next victims of their set, kLast
// lines are evicted only after every normal line of the set (LRU among themselves).
enum class InsertPriority : int { kFirst = -1, kNormal = 0, kLast = 1 };
Replacement replacement_from_name(const std::string& name);

// `banks` independent caches of `size_bytes` each (the slices of an L2, the L1s of all SMs) live in
// one allocation: one array of tens of MB on huge pages instead of a hundred small ones, each on
// its own 4 KiB pages (a TLB miss per array per lookup). Each bank keeps its own replacement clock,
// so a bank behaves exactly as a TagArray of its own.
class TagArray {
 public:
  TagArray(std::int64_t size_bytes, int line_bytes, int sector_bytes, int assoc, Replacement policy, int banks = 1);

  struct Access {
    std::uint32_t hit = 0;        // requested sectors present
    std::uint32_t miss = 0;       // requested sectors absent (caller fetches them, then fill())
    Tick ready = 0;               // latest arrival tick among hit sectors
    std::uint32_t valid = 0;      // sectors valid before this access
    std::uint32_t slot = 0;       // where the line lives now
    std::uint32_t evicted_dirty = 0;  // dirty sectors of the line this access evicted
    Addr evicted_line = 0;
  };

  // Looks up `line` (line-aligned address) in `set`. On a tag miss the line is allocated, evicting a
  // victim. Writes mark the sectors valid and dirty at once (no fetch: writes carry byte masks).
  Access access(std::uint32_t bank, std::uint32_t set, Addr line, std::uint32_t sectors, bool write, Tick now,
                InsertPriority priority = InsertPriority::kNormal);
  // Where the set holding `slot` keeps more than `limit` dirty ways (0: no limit), the line at `slot` is
  // written through: its dirty sectors are returned (for the caller to write to DRAM) and it stays valid,
  // clean. Returns 0 otherwise.
  std::uint32_t write_through_over(std::uint32_t slot, int limit);
  // Marks `sectors` of the line at `slot` valid, arriving at `ready`.
  void fill(std::uint32_t slot, std::uint32_t sectors, Tick ready);
  // `sectors` of the (valid) line at `slot` are not readable before `until` (a read-modify-write in
  // progress): later hits on them wait for it.
  void hold_until(std::uint32_t slot, std::uint32_t sectors, Tick until);

  // Asks the host CPU to bring `set`'s fingerprints and stamps into its cache: a pure hint (no
  // simulated effect) that lets the lookups of one load group overlap their host cache misses.
  void prefetch(std::uint32_t bank, std::uint32_t set) const {
    const std::size_t base = first_slot(bank, set);
    __builtin_prefetch(&print_[base]);
    __builtin_prefetch(&stamp_[base]);
    __builtin_prefetch(&stamp_[base + assoc_ - 1]);
  }
  // The same for the record of `line` where a way's fingerprint matches it (the set's fingerprints should be
  // in the host's cache already: a prefetch() some time before).
  void prefetch_record(std::uint32_t bank, std::uint32_t set, Addr line) const {
    const std::size_t base = first_slot(bank, set);
    const std::uint16_t fp = fingerprint(line);
    for (int w = 0; w < assoc_; ++w)
      if (print_[base + w] == fp) __builtin_prefetch(state(static_cast<std::uint32_t>(base + w)));
  }
  // The set's dirty ways as kept (dirty_ways) and as a scan of its ways finds them (count_dirty_ways: for checks).
  int dirty_ways(std::uint32_t bank, std::uint32_t set) const { return dirty_ways_[set_index(bank, set)]; }
  int count_dirty_ways(std::uint32_t bank, std::uint32_t set) const;
  std::uint32_t sets() const { return sets_; }  // per bank
  // The set of a line index (line address / line size) when sets are not hashed: index mod sets.
  std::uint32_t set_of(std::uint64_t line_index) const { return set_mod_(line_index); }
  int banks() const { return static_cast<int>(clock_.size()); }
  int sectors_per_line() const { return sectors_per_line_; }
  int assoc() const { return assoc_; }
  std::uint32_t full_mask() const { return full_mask_; }
  bool contains(std::uint32_t bank, std::uint32_t set, Addr line) const;
  // Whether `slot` still holds `line` (a slot handed out earlier may have been given to another line since).
  bool holds(std::uint32_t slot, Addr line) const { return print_[slot] != 0 && tag_of(state(slot)) == line; }
  std::size_t slots() const { return print_.size(); }  // over all banks
  // The latest arrival among `sectors` of the line at `slot`, no earlier than `now` (what access() says of its hits).
  Tick ready_at(std::uint32_t slot, std::uint32_t sectors, Tick now) const {
    std::uint32_t latest = 0;  // offsets order as ticks do
    const std::uint32_t* r = arrivals(state(slot));
    for (std::uint32_t m = sectors; m; m &= m - 1) latest = std::max(latest, r[std::countr_zero(m)]);
    return std::max(now, decode(latest));
  }
  // Dirty sectors still held (for end-of-kernel accounting).
  std::uint64_t dirty_sectors() const;
  // Empties the cache (a kernel boundary for L1, a profiler's cache flush for L2): nothing is
  // written back, replacement state starts over.
  void invalidate_all();

 private:
  std::uint32_t victim(std::uint32_t base, std::uint64_t clock);
  // The set's index over all banks (its dirty_ways_ entry); its first way's slot.
  std::size_t set_index(std::uint32_t bank, std::uint32_t set) const { return static_cast<std::size_t>(bank) * sets_ + set; }
  std::size_t first_slot(std::uint32_t bank, std::uint32_t set) const { return set_index(bank, set) * assoc_; }

  // A slot's record: word 0 the line address (its tag), word 1 the valid (low 32 bits) and dirty
  // (high 32 bits) sector masks, then each sector's arrival tick in 32 bits (32 bytes for 4
  // sectors). A lookup scans the set's 16-bit fingerprints (an H100's L2: 800 KB, which stays in the
  // host's cache) and reads the record of a way whose fingerprint matches: one host cache line,
  // instead of the set's 128 bytes of tags plus the found way's state (docs/performance.md).
  std::uint64_t* state(std::uint32_t slot) { return &state_[static_cast<std::size_t>(slot) * state_words_]; }
  const std::uint64_t* state(std::uint32_t slot) const { return &state_[static_cast<std::size_t>(slot) * state_words_]; }
  static Addr tag_of(const std::uint64_t* st) { return st[0]; }
  static std::uint32_t valid_of(const std::uint64_t* st) { return static_cast<std::uint32_t>(st[1]); }
  static std::uint32_t dirty_of(const std::uint64_t* st) { return static_cast<std::uint32_t>(st[1] >> 32); }
  static std::uint32_t* arrivals(std::uint64_t* st) { return reinterpret_cast<std::uint32_t*>(st + 2); }
  static const std::uint32_t* arrivals(const std::uint64_t* st) { return reinterpret_cast<const std::uint32_t*>(st + 2); }

  // Arrival ticks are kept as offsets from `epoch_`, 0 meaning "at or before the epoch". Only
  // max(now, arrival) is ever asked for, and every lookup's `now` is at or after the epoch (asserted),
  // so an arrival at or before it reads as exactly what it was: no later than now. The epoch follows
  // the latest tick seen, 2^31 ticks (2.1 M cycles) behind it; the simulator's requests in flight
  // span far less (its bandwidth servers' windows are 32 K cycles).
  std::uint32_t encode(Tick t) {
    if (t > latest_) advance(t);
    return t > epoch_ ? static_cast<std::uint32_t>(t - epoch_) : 0;
  }
  Tick decode(std::uint32_t v) const { return epoch_ + v; }
  void advance(Tick t);  // latest_ = t; moves the epoch (and every stored offset) when t nears its range
  // 1..65535 for a line (0 marks an empty way): a multiplicative hash of the line number.
  static std::uint16_t fingerprint(Addr line) {
    const auto h = static_cast<std::uint16_t>(((line >> 5) * 0x9E3779B97F4A7C15ull) >> 48);
    return h ? h : 1;
  }
  // The slot of `line` in the set starting at `base` (its fingerprint `fp`), or ~0u.
  std::uint32_t find(std::uint32_t base, Addr line, std::uint16_t fp) const;

  std::uint32_t sets_;
  FastMod64 set_mod_;
  int assoc_;
  int sectors_per_line_;
  std::size_t state_words_;       // 64-bit words per slot record: 2 + sectors per line / 2
  std::uint32_t full_mask_;
  Replacement policy_;
  std::vector<std::uint64_t> clock_;  // per bank: access counter driving LRU/FIFO stamps and the random victim
  Tick epoch_ = 0;   // arrival offsets count from here
  Tick latest_ = 0;  // the latest tick stored or looked up
  template <class T>
  using Array = std::vector<T, HugePageAllocator<T>>;
  Array<std::uint16_t> print_;    // per slot: fingerprint of its line, 0 = empty
  // Slots still empty: ways only ever fill (until invalidate_all), so once none is left a victim's search skips the
  // empty-way scan (a warm L2 has none: 16 fingerprints read per miss for nothing).
  std::size_t empty_slots_ = 0;
  Array<std::uint64_t> stamp_;    // replacement order (scanned only to pick a victim)
  Array<std::uint64_t> state_;    // slot * state_words_: tag, masks, per-sector arrival offsets
  std::vector<std::uint16_t> dirty_ways_;  // per bank and set: its ways holding dirty sectors
};

}  // namespace gms
