from bingwa.cli import main

main()
