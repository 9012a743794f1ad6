defmodule B.MixProject do
end
