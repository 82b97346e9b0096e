#include "model/tag_array.h"

#include <algorithm>
#include <bit>

#include "common/error.h"

namespace gms {

Replacement replacement_from_name(const std::string& name) {
  if (name == "lru") return Replacement::kLru;
  if (name == "fifo") return Replacement::kFifo;
  if (name == "random") return Replacement::kRandom;
  SIM_ASSERT(false, "unknown replacement policy '" << name << "' passed config validation");
}

namespace {
// evict_last lines sit above every normal stamp; the offset leaves room for 2^40 accesses.
constexpr std::uint64_t kProtectedStamp = 1ull << 40;
}  // namespace

TagArray::TagArray(std::int64_t size_bytes, int line_bytes, int sector_bytes, int assoc, Replacement policy, int banks)
    : sets_(static_cast<std::uint32_t>(size_bytes / (static_cast<std::int64_t>(line_bytes) * assoc))),
      set_mod_(std::max<std::uint32_t>(1, sets_)),
      assoc_(assoc),
      sectors_per_line_(line_bytes / sector_bytes),
      state_words_(static_cast<std::size_t>(2 + (line_bytes / sector_bytes + 1) / 2)),
      full_mask_(sectors_per_line_ >= 32 ? ~0u : ((1u << sectors_per_line_) - 1)),
      policy_(policy),
      clock_(static_cast<std::size_t>(banks), 1) {
  SIM_ASSERT(sets_ >= 1, "cache of " << size_bytes << " B cannot hold one set of " << assoc << " x " << line_bytes);
  SIM_ASSERT(banks >= 1, banks << " banks");
  SIM_ASSERT(sectors_per_line_ <= 32, sectors_per_line_ << " sectors per line (masks are 32-bit)");
  size_t slots = static_cast<size_t>(sets_) * assoc_ * banks;
  print_.assign(slots, 0);
  empty_slots_ = slots;
  stamp_.assign(slots, 0);
  state_.assign(slots * state_words_, 0);
  dirty_ways_.assign(slots / static_cast<std::size_t>(assoc_), 0);
}

void TagArray::advance(Tick t) {
  latest_ = t;
  constexpr Tick kRange = Tick{1} << 32, kKeep = Tick{1} << 31;
  if (t - epoch_ < kRange - kKeep / 2) return;
  const Tick next = t - kKeep, shift = next - epoch_;
  const std::size_t sectors = static_cast<std::size_t>(sectors_per_line_);
  for (std::size_t slot = 0; slot < print_.size(); ++slot) {
    std::uint32_t* a = arrivals(state(static_cast<std::uint32_t>(slot)));
    for (std::size_t i = 0; i < sectors; ++i) a[i] = a[i] > shift ? static_cast<std::uint32_t>(a[i] - shift) : 0;
  }
  epoch_ = next;
}

void TagArray::invalidate_all() {
  std::fill(print_.begin(), print_.end(), 0);
  empty_slots_ = print_.size();
  std::fill(stamp_.begin(), stamp_.end(), 0);
  std::fill(state_.begin(), state_.end(), 0);
  std::fill(dirty_ways_.begin(), dirty_ways_.end(), 0);
}

std::uint32_t TagArray::victim(std::uint32_t base, std::uint64_t clock) {
  if (empty_slots_ > 0)  // an empty way first, whatever the policy (the fingerprints: one host cache line)
    for (int w = 0; w < assoc_; ++w)
      if (print_[base + w] == 0) return base + w;
  if (policy_ == Replacement::kRandom) {
    std::uint64_t x = clock * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return base + static_cast<std::uint32_t>(x % assoc_);
  }
  // The oldest stamp, the first of equals; 0 (an evict-first line) cannot be beaten, so the scan
  // stops there: a GEMV's evict-first stream finds its set's last one without reading every stamp.
  std::uint32_t best = base;
  for (int w = 0; w < assoc_; ++w) {
    const std::uint32_t s = base + w;
    if (stamp_[s] == 0) return s;
    if (stamp_[s] < stamp_[best]) best = s;
  }
  return best;
}

TagArray::Access TagArray::access(std::uint32_t bank, std::uint32_t set, Addr line, std::uint32_t sectors, bool write,
                                  Tick now, InsertPriority priority) {
  SIM_ASSERT(set < sets_ && bank < clock_.size(), "set " << set << " of " << sets_ << ", bank " << bank << " of " << clock_.size());
  SIM_ASSERT(now >= epoch_, "lookup at tick " << now << " before the arrival epoch " << epoch_ << " (latest " << latest_
                                                << "): requests in flight span more than 2^31 ticks");
  if (now > latest_) advance(now);
  const std::uint64_t clock = ++clock_[bank];
  Access out;
  const std::uint32_t base = static_cast<std::uint32_t>(first_slot(bank, set));
  const std::uint16_t fp = fingerprint(line);
  std::uint32_t slot = find(base, line, fp);
  std::uint64_t* st;
  if (slot == ~0u) {
    slot = victim(base, clock);
    st = state(slot);
    if (print_[slot] == 0) {
      --empty_slots_;
    } else if (dirty_of(st)) {
      out.evicted_dirty = dirty_of(st);
      out.evicted_line = tag_of(st);
      --dirty_ways_[set_index(bank, set)];
    }
    print_[slot] = fp;
    st[0] = line;
    st[1] = 0;  // no sector valid, none dirty
    stamp_[slot] = priority == InsertPriority::kFirst  ? 0
                   : priority == InsertPriority::kLast ? clock + kProtectedStamp
                                                       : clock;
  } else {
    st = state(slot);
    if (policy_ == Replacement::kLru && priority != InsertPriority::kFirst)
      stamp_[slot] = clock + (priority == InsertPriority::kLast || stamp_[slot] >= kProtectedStamp ? kProtectedStamp : 0);
  }
  const std::uint32_t valid = valid_of(st);
  out.slot = slot;
  out.valid = valid;
  out.hit = valid & sectors;
  out.miss = sectors & ~valid;
  out.ready = ready_at(slot, out.hit, now);
  if (write) {
    if (dirty_of(st) == 0 && sectors != 0) ++dirty_ways_[set_index(bank, set)];
    st[1] |= static_cast<std::uint64_t>(sectors) | (static_cast<std::uint64_t>(sectors) << 32);
    const std::uint32_t at = encode(now);
    for (std::uint32_t m = out.miss; m; m &= m - 1) arrivals(st)[std::countr_zero(m)] = at;
  }
  return out;
}

std::uint32_t TagArray::write_through_over(std::uint32_t slot, int limit) {
  std::uint16_t& dirty = dirty_ways_[slot / static_cast<std::uint32_t>(assoc_)];
  if (limit <= 0 || dirty <= limit) return 0;  // the usual case: the set's count alone decides
  std::uint64_t* st = state(slot);
  const std::uint32_t mask = dirty_of(st);
  if (mask == 0) return 0;
  st[1] &= 0xffffffffull;  // clean, still valid
  --dirty;
  return mask;
}

void TagArray::fill(std::uint32_t slot, std::uint32_t sectors, Tick ready) {
  const std::uint32_t at = encode(ready);
  std::uint64_t* st = state(slot);
  st[1] |= sectors;
  for (std::uint32_t m = sectors; m; m &= m - 1) arrivals(st)[std::countr_zero(m)] = at;
}

void TagArray::hold_until(std::uint32_t slot, std::uint32_t sectors, Tick until) {
  const std::uint32_t at = encode(until);
  std::uint32_t* a = arrivals(state(slot));
  for (std::uint32_t m = sectors; m; m &= m - 1) {
    std::uint32_t& r = a[std::countr_zero(m)];
    r = std::max(r, at);
  }
}

std::uint32_t TagArray::find(std::uint32_t base, Addr line, std::uint16_t fp) const {
  for (int w = 0; w < assoc_; ++w)
    if (print_[base + w] == fp && tag_of(state(base + w)) == line) return base + w;
  return ~0u;
}

bool TagArray::contains(std::uint32_t bank, std::uint32_t set, Addr line) const {
  return find(static_cast<std::uint32_t>(first_slot(bank, set)), line, fingerprint(line)) != ~0u;
}

int TagArray::count_dirty_ways(std::uint32_t bank, std::uint32_t set) const {
  const std::size_t base = first_slot(bank, set);
  int n = 0;
  for (int w = 0; w < assoc_; ++w)
    if (print_[base + w] && dirty_of(state(static_cast<std::uint32_t>(base + w)))) ++n;
  return n;
}

std::uint64_t TagArray::dirty_sectors() const {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < print_.size(); ++s)
    if (print_[s]) n += std::popcount(dirty_of(state(static_cast<std::uint32_t>(s))));
  return n;
}

}  // namespace gms
