// SPDX-License-Identifier: MIT
#include "profiler/capture/driver_probe.h"

#include <dlfcn.h>

namespace placescope::capture {
namespace {

constexpr int kCudaErrorNoDevice = 100;
constexpr int kCudaErrorInsufficientDriver = 35;
constexpr int kCudaErrorSystemDriverMismatch = 803;
constexpr int kCudaErrorCompatNotSupported = 804;
constexpr int kCuda13DriverVersion = 13000;

std::string errorName(void* driver, int code)
{
    using GetErrorName = int (*)(int, const char**);
    auto getName = reinterpret_cast<GetErrorName>(dlsym(driver, "cuGetErrorName"));
    const char* name = nullptr;
    if (getName && getName(code, &name) == 0 && name)
        return std::string(name) + " (" + std::to_string(code) + ")";
    return "error " + std::to_string(code);
}

} // namespace

std::string diagnoseNoTrace(const char* libraryName)
{
    void* driver = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
    if (!driver)
        return std::string("no NVIDIA driver on this machine (") + libraryName
            + " not found); run on a machine with an NVIDIA GPU and its driver";
    using Init = int (*)(unsigned);
    using DriverVersion = int (*)(int*);
    using DeviceCount = int (*)(int*);
    auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
    auto driverVersion = reinterpret_cast<DriverVersion>(dlsym(driver, "cuDriverGetVersion"));
    auto deviceCount = reinterpret_cast<DeviceCount>(dlsym(driver, "cuDeviceGetCount"));
    std::string cause;
    int version = 0;
    if (!init || !driverVersion || !deviceCount)
        cause = std::string(libraryName) + " is not an NVIDIA driver library; reinstall the driver";
    else if (driverVersion(&version) == 0 && version > 0 && version < kCuda13DriverVersion)
        cause = "the NVIDIA driver supports CUDA " + std::to_string(version / 1000) + "."
            + std::to_string(version % 1000 / 10)
            + " but the tracer needs a driver for CUDA 13 (r580 or newer); update the driver";
    else if (int result = init(0); result == kCudaErrorNoDevice)
        cause = "no CUDA GPU is visible (cuInit: " + errorName(driver, result)
            + "); check nvidia-smi and CUDA_VISIBLE_DEVICES";
    else if (result == kCudaErrorInsufficientDriver || result == kCudaErrorSystemDriverMismatch
        || result == kCudaErrorCompatNotSupported)
        cause = "the NVIDIA driver cannot run CUDA 13 (cuInit: " + errorName(driver, result) + "); update the driver";
    else if (result != 0)
        cause = "the NVIDIA driver does not initialize (cuInit: " + errorName(driver, result) + "); check nvidia-smi";
    else if (int count = 0; deviceCount(&count) != 0 || count == 0)
        cause = "no CUDA GPU is visible; check nvidia-smi and CUDA_VISIBLE_DEVICES";
    else
        cause = "the program never initialized CUDA (no CUDA call, or it removed CUDA_INJECTION64_PATH from its "
                "environment), so there was nothing to trace";
    dlclose(driver);
    return cause;
}

} // namespace placescope::capture
