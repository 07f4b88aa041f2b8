// Compiled only to make a precompiled header that other targets reuse
// (cmake/DpstudioPrecompiled.cmake); it defines nothing.
