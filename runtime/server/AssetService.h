//===- AssetService.h - files shipped with send_binary format 1 -*- C++ -*-===//
#ifndef EXECUTORSERVER_ASSETSERVICE_H
#define EXECUTORSERVER_ASSETSERVICE_H

#include "Service.h"

#include <string>

namespace executor_studio::runtime {
/// Makes a fresh private directory (mode 0700) under `root` for one
/// session; "" with `error` set when it cannot.
std::string makeAssetDirectory(const std::string &root, std::string &error);
/// Removes `directory` and everything in it (symbolic links, not what they
/// point to); where a session renamed it inside its root, there.
void removeAssetDirectory(const std::string &directory);
/// At start: removes the asset directories in `root` of servers that no
/// longer run (killed before they could remove them), each logged.
void removeStaleAssetDirectories(const std::string &root);
/// In a session process: where __executor_studio_store_asset writes. Also
/// makes it the working directory and sets EXECUTOR_ASSET_DIR, so kernels
/// open an asset by the name it was sent under. "" leaves assets refused
/// with `why`.
void enterAssetDirectory(const std::string &directory, const std::string &why);

/// Stores `bytes` as the asset `name` (a plain file name, assetNameProblem)
/// in the session's directory, atomically; "" or why it could not.
std::string storeAsset(const std::string &name, const char *content,
                       size_t bytes);

/// The asset service: __executor_studio_store_asset (kStoreAssetWrapperName).
std::unique_ptr<Service> makeAssetService();
} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_ASSETSERVICE_H
