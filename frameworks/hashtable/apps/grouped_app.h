// The walk of the apps whose answer groups each key's values into rows of a
// TableOutput made in the walk (kv-pairs; patent-citation and geo-location
// leave their grouping as the CPU-MT baseline does: id_lists.h): under
// multi-valued a key entry lists its values, under basic every record is its
// own entry, under combining a key's values were combined into its entry.
// Either way the walk groups equal keys (entries of several iterations, or of
// several records) into one row of the workload's TableOutput; the app says
// what the row holds.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/outputs.h"

namespace harness::hashtable {

class GroupedApp : public SepoApp {
 public:
  // Each worker walks a range of buckets into its own table: a key's entries
  // all lie in its bucket's chain, so a chain sorted by key gives each key's
  // row; the workers' tables are then appended into one.
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override;

 protected:
  // An empty table of the answer's columns under `org`.
  virtual workloads::TableOutput table(Organization org) const = 0;
  // Adds the row of the key whose bytes are `key`: `values` are its entries'
  // values (each one's words), in the walk's order.
  virtual void add_row(workloads::TableOutput& table, std::string_view key,
                       std::span<const std::uint32_t* const> values, Organization org) const = 0;
  // The answer made of the walked table (default: the table itself).
  virtual std::unique_ptr<workloads::Output> answer(workloads::TableOutput table,
                                                    Organization org) const;
};

}  // namespace harness::hashtable
