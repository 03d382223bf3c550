/* Between the two inclusions of an app's file in a persistent_<app>.cu
 * (kernels/persistent_roles.cuh): forgets the address role's mode so that
 * kernels/bigkernel.clh is read again in the compute mode. Macros whose text
 * is the same in both modes may stay; the app forgets its own include guard. */
#undef BIGKERNEL_CLH
#undef BK_MODE_ADDRGEN
#undef BK_P_ROLE
#undef BK_COMPUTING
#undef BK_END
#undef BK_WRITE_I64
