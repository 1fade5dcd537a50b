// relpos: the public interface of the models module (relpos-models), the header its JS binding
// includes (bindings/models_bindings.cpp): rp.presets and rp.fromConfig, which read scheme
// parameters against the core's catalogue. The core's own header (relpos.hpp) never includes
// models/, so the module a page loads first holds neither the config.json reader, its JSON parser
// nor the presets table (docs/build.md).
#pragma once

#include "relpos/models/models.hpp"
#include "relpos/relpos.hpp"
