defmodule Q.MixProject do end
