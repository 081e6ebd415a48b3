/* Embeds the default net in the binary (read-only data), so ./squall works from any directory.
 * The makefile passes SQUALL_EVALFILE (a quoted path) when a net is to be embedded; without
 * it the blob is empty and the engine starts with the classical evaluation. */
    .section .rodata
    .balign 64
    .globl squall_embedded_net
    .globl squall_embedded_net_end
    .globl squall_embedded_net_name
squall_embedded_net:
#ifdef SQUALL_EVALFILE
    .incbin SQUALL_EVALFILE
#endif
squall_embedded_net_end:
    .byte 0
squall_embedded_net_name:
#ifdef SQUALL_EVALFILE_NAME
    .asciz SQUALL_EVALFILE_NAME
#else
    .asciz "none"
#endif
#if defined(__linux__) && defined(__ELF__)
    .section .note.GNU-stack,"",%progbits
#endif
